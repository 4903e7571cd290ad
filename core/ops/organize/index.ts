/** Categories, payment methods and tags: how a household groups its subscriptions. */
export const organizeOps = [] as const;
