import { z } from 'zod';

import type { Database } from '../store/connection.ts';
import { defineFlow, type Flow } from '../store/repos/flows.ts';

/**
 * A reconciliation shown in chat: one `flows` row (kind `reconcile`) holding what its card offered
 * to mark paid, so "Mark N paid" applies exactly that, and the statement review it came from (whose
 * row keeps the file, to reconcile it again when the household moved on).
 */

/** As long as the statement review it belongs to. */
const RECONCILE_TTL_MS = 24 * 3_600_000;

const ReconcileSchema = z.object({
  /** The statement review row (statementFlow.ts) the file is kept in. */
  review_id: z.string(),
  file_name: z.string(),
  to_mark: z.array(
    z.object({
      subscription_id: z.string(),
      charge_date: z.string(),
      amount: z.string(),
      currency: z.string(),
    }),
  ),
  status: z.enum(['open', 'marked', 'replaced']),
  /** The pending change (surface chat) the marks were applied through, for Undo. */
  pending_id: z.string().nullable(),
});
export type Reconciliation = z.infer<typeof ReconcileSchema>;

const RECONCILIATIONS = defineFlow({
  kind: 'reconcile',
  ttlMs: RECONCILE_TTL_MS,
  payload: ReconcileSchema,
});

export async function saveReconciliation(
  db: Database,
  entry: { id: string; householdId: string | null; memberId: string | null; value: Reconciliation },
  now: Date,
): Promise<void> {
  await RECONCILIATIONS.save(db.knex, {
    id: entry.id,
    householdId: entry.householdId,
    memberId: entry.memberId,
    payload: entry.value,
    now,
  });
}

/** The reconciliation, or null when it is gone (expired, purged, or no longer readable). */
export async function loadReconciliation(
  db: Database,
  id: string,
  now: Date,
): Promise<Flow<Reconciliation> | null> {
  const row = await RECONCILIATIONS.load(db.knex, id);
  if (!row || row.expiresAt <= now.toISOString()) return null;
  return row;
}

export async function updateReconciliation(
  db: Database,
  id: string,
  value: Reconciliation,
): Promise<void> {
  await RECONCILIATIONS.settle(db.knex, id, value);
}
