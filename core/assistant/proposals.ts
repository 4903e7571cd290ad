import type { Core } from '../kernel/core.ts';
import { type PendingChanges, pendingChanges } from '../pending/index.ts';
import type { Limits } from './limits.ts';

/**
 * The assistant's proposals: its pending changes (core/pending) on the `assistant` surface. A
 * proposal belongs to the member who asked, can be confirmed for `proposalTtlMs` and undone from its
 * card for `undoWindowMs`; its outcome stays on the row so the assistant remembers what the member
 * did. A spent proposal (the records moved since its card) reads as used.
 */
export function proposals(core: Core, limits: Limits, clock: () => Date): PendingChanges {
  return pendingChanges(core, {
    surface: 'assistant',
    ttlMs: limits.proposalTtlMs,
    undoWindowMs: limits.undoWindowMs,
    clock,
    idPrefix: 'prp',
    refusals: {
      not_found: 'assistant.proposal.not_found',
      used: 'assistant.proposal.used',
      spent: 'assistant.proposal.used',
      expired: 'assistant.proposal.expired',
      not_applied: 'assistant.proposal.not_applied',
      undo_expired: 'assistant.proposal.undo_expired',
    },
  });
}
