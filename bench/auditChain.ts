import { isDeepStrictEqual } from 'node:util';

import type { Knex } from 'knex';

/** One row change as the audit stores it (`audit_entries.changes`, see core/store/tracked.ts). */
interface StoredChange {
  table: string;
  id: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface AuditEntry {
  seq: number;
  id: string;
  op: string;
  changes: StoredChange[];
}

/** Every audit entry of the database, oldest first, with its changes parsed. */
export async function auditEntries(knex: Knex): Promise<AuditEntry[]> {
  const rows: Array<{ seq: number; id: string; op: string; changes: string }> = await knex(
    'audit_entries',
  )
    .select('seq', 'id', 'op', 'changes')
    .orderBy('seq', 'asc');
  return rows.map((row) => ({
    seq: Number(row.seq),
    id: row.id,
    op: row.op,
    // Written by the kernel as JSON.stringify(Change[]) (core/kernel/core.ts).
    changes: JSON.parse(row.changes) as StoredChange[],
  }));
}

/**
 * The audit consistency check: for every row, each entry's before-image equals the after-image
 * the previous entry for that row left (a row's first entry starts from "did not exist" unless the
 * row predates the audit). Returns how many row changes were checked and how many broke the chain.
 */
export function chainBreaks(entries: readonly AuditEntry[]): {
  changes: number;
  breaks: number;
  example: string | null;
} {
  const last = new Map<string, Record<string, unknown> | null>();
  let changes = 0;
  let breaks = 0;
  let example: string | null = null;
  for (const entry of entries)
    for (const change of entry.changes) {
      const key = `${change.table}/${change.id}`;
      changes += 1;
      if (last.has(key) && !isDeepStrictEqual(last.get(key), change.before)) {
        breaks += 1;
        example ??= `${entry.op} ${entry.id} on ${key}`;
      }
      last.set(key, change.after);
    }
  return { changes, breaks, example };
}

/** Whether every row an entry touched is now exactly as it was before that entry. */
export async function restoredBefore(knex: Knex, entry: AuditEntry): Promise<boolean> {
  for (const change of entry.changes) {
    const row: Record<string, unknown> | undefined = await knex(change.table)
      .where({ id: change.id })
      .first();
    if (!isDeepStrictEqual(row ?? null, change.before)) return false;
  }
  return true;
}
