import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import type { Row } from '../../store/tracked.ts';
import { requireOwned } from '../shared/context.ts';
import { Category, Id, ShortName } from '../../domain/schemas.ts';
import { Color } from './_lib/fields.ts';
import { assertNameFree } from './_lib/names.ts';
import { applyPatch } from './_lib/patch.ts';
import { loadCategory } from './_lib/views.ts';

export const updateCategory = defineOp({
  name: 'update_category',
  title: 'Rename or recolour a category',
  description:
    'Renames or recolours a category. A name another category has is refused: merge_categories combines two.',
  input: z.object({
    id: Id,
    name: ShortName.optional(),
    color: Color.nullable().optional().describe('Its new colour (#RRGGBB), or null for none.'),
  }),
  output: Category,
  effect: 'write',
  idempotent: true,
  summarize: (_input, output) => ({ name: output.name }),
  async run(ctx, input) {
    const current = await requireOwned<Row>(ctx, 'categories', 'category', input.id, {
      forUpdate: true,
    });
    if (input.name !== undefined) await assertNameFree(ctx, 'categories', input.name, input.id);
    const row = await applyPatch(ctx, 'categories', current, {
      name: input.name,
      color: input.color,
    });
    return loadCategory(ctx, row);
  },
});
