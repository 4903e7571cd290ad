import { createCategory } from './createCategory.ts';
import { createPaymentMethod } from './createPaymentMethod.ts';
import { createTag } from './createTag.ts';
import { deleteCategory } from './deleteCategory.ts';
import { deletePaymentMethod } from './deletePaymentMethod.ts';
import { deleteTag } from './deleteTag.ts';
import { listCategories } from './listCategories.ts';
import { listPaymentMethods } from './listPaymentMethods.ts';
import { listTags } from './listTags.ts';
import { mergeCategories } from './mergeCategories.ts';
import { renameTag } from './renameTag.ts';
import { updateCategory } from './updateCategory.ts';
import { updatePaymentMethod } from './updatePaymentMethod.ts';

/** Categories, payment methods and tags: how a household groups its subscriptions. */
export const organizeOps = [
  listCategories,
  createCategory,
  updateCategory,
  deleteCategory,
  mergeCategories,
  listPaymentMethods,
  createPaymentMethod,
  updatePaymentMethod,
  deletePaymentMethod,
  listTags,
  createTag,
  renameTag,
  deleteTag,
] as const;
