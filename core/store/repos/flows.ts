import type { Knex } from 'knex';

/**
 * A `flows` row: short-lived state with an expiry (button presses, pending questions, assistant
 * proposals, MCP confirmations), in the database so any process can pick it up.
 */
export interface FlowRow {
  id: string;
  household_id: string | null;
  member_id: string | null;
  kind: string;
  /** JSON. */
  payload: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/**
 * Marks a flow used; true only for the one caller, in any process, that got there first. With
 * `unexpiredAt`, an expired flow cannot be claimed either.
 */
export async function claimFlow(
  db: Knex,
  where: { id: string; kind?: string },
  now: Date,
  unexpiredAt?: Date,
): Promise<boolean> {
  const query = db('flows').where(where).whereNull('used_at');
  if (unexpiredAt) query.andWhere('expires_at', '>', unexpiredAt.toISOString());
  return Number(await query.update({ used_at: now.toISOString() })) === 1;
}

/** Gives a claimed flow back (what it stood for failed, so it may be tried again). */
export async function releaseFlow(db: Knex, where: { id: string; kind?: string }): Promise<void> {
  await db('flows').where(where).update({ used_at: null });
}
