import { bulkUpdateSubscriptions } from './bulkUpdateSubscriptions.ts';
import { cancelSubscription } from './cancelSubscription.ts';
import { createSubscription } from './createSubscription.ts';
import { deleteSubscription } from './deleteSubscription.ts';
import { getSubscription } from './getSubscription.ts';
import { listSubscriptions } from './listSubscriptions.ts';
import { pauseSubscription } from './pauseSubscription.ts';
import { resumeSubscription } from './resumeSubscription.ts';
import { updateSubscription } from './updateSubscription.ts';

/** Subscriptions: what the household pays for, and their life from trial to cancellation. */
export const subscriptionOps = [
  listSubscriptions,
  getSubscription,
  createSubscription,
  updateSubscription,
  pauseSubscription,
  resumeSubscription,
  cancelSubscription,
  deleteSubscription,
  bulkUpdateSubscriptions,
] as const;
