import type { Knex } from 'knex';

import type { Change, Row } from './tracked.ts';

const CHILD_TABLES = new Set([
  'charges',
  'price_changes',
  'subscription_tags',
  'subscription_shares',
]);

function privateOwner(row: Row | null): string | null {
  return row && row.private === 1 && typeof row.member_id === 'string' ? row.member_id : null;
}

/**
 * The member whose private subscription a set of changes touches, or null. An audit entry with an
 * owner is shown (and undoable) only for that member: a private subscription stays private in the
 * activity list too.
 */
export async function privateOwnerOf(
  trx: Knex | Knex.Transaction,
  changes: readonly Change[],
): Promise<string | null> {
  for (const change of changes) {
    if (change.table === 'subscriptions') {
      const owner = privateOwner(change.after) ?? privateOwner(change.before);
      if (owner) return owner;
    }
  }
  const parentIds = new Set<string>();
  for (const change of changes) {
    if (!CHILD_TABLES.has(change.table)) continue;
    const id = (change.after ?? change.before)?.subscription_id;
    if (typeof id === 'string') parentIds.add(id);
  }
  if (parentIds.size === 0) return null;
  const row = (await trx('subscriptions')
    .whereIn('id', [...parentIds])
    .andWhere({ private: 1 })
    .first('member_id')) as { member_id: string } | undefined;
  return row?.member_id ?? null;
}

/**
 * When a subscription becomes private (or changes hands while private), its earlier activity
 * becomes private to its member too; when it becomes public, that activity is shown again. Without
 * this, old entries ("Marked Therapy paid") would stay visible, and undoable, to everyone.
 */
export async function followPrivacy(
  trx: Knex | Knex.Transaction,
  householdId: string,
  changes: readonly Change[],
): Promise<void> {
  for (const change of changes) {
    if (change.table !== 'subscriptions' || change.before === null || change.after === null)
      continue;
    const was = privateOwner(change.before);
    const now = privateOwner(change.after);
    if (was === now) continue;
    const touching = trx('audit_entries')
      .where({ household_id: householdId })
      .andWhere('changes', 'like', `%${change.id}%`);
    if (now !== null) await touching.update({ private_to: now });
    else await touching.andWhere({ private_to: was }).update({ private_to: null });
  }
}
