/**
 * Pending changes: prepared by a dry run, shown on a card Exhale writes, confirmed once and exactly
 * as previewed, undoable. Every surface that asks a person before a change uses this service.
 */
export { type Card, previewCard } from './card.ts';
export {
  type Applied,
  type PendingChanges,
  type PendingOptions,
  pendingChanges,
  type Preview,
  type Refusals,
} from './service.ts';
export { type PendingChange, type PendingPayload } from './store.ts';
