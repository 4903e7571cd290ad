import type { Knex } from 'knex';

import type { StoredSummary } from '../../i18n/activity.ts';
import type { Change } from '../tracked.ts';

/** An `audit_entries` row as stored. */
export interface AuditRow {
  seq: number;
  id: string;
  household_id: string;
  member_id: string | null;
  actor_kind: string;
  channel: string;
  agent_name: string | null;
  token_id: string | null;
  op: string;
  input: string;
  changes: string;
  /** English, for logs; render summary_text for people (core/i18n/activity.ts). */
  summary: string;
  /** JSON of the line's text; null for entries recorded before texts were kept. */
  summary_text: string | null;
  private_to: string | null;
  undone_by: string | null;
  links: string | null;
  created_at: string;
}

export function changesOf(row: AuditRow): Change[] {
  return JSON.parse(row.changes) as Change[];
}

/** An audit entry as the kernel writes it (`seq` is assigned by the database). */
export type NewAuditRow = Omit<AuditRow, 'seq'>;

/** Writes one audit entry, inside the transaction of the change it records. */
export async function insertAuditEntry(trx: Knex.Transaction, row: NewAuditRow): Promise<void> {
  await trx('audit_entries').insert(row);
}

/** What a line naming another entry needs of it: its text, its changes (before-images), its links. */
export type LinkedSummary = StoredSummary & Pick<AuditRow, 'changes' | 'links'>;

/** The stored activity lines of some entries, by id (entries that are gone are left out). */
export async function summariesOf(
  db: Knex | Knex.Transaction,
  ids: readonly string[],
): Promise<Map<string, LinkedSummary>> {
  if (ids.length === 0) return new Map();
  const rows: Array<LinkedSummary & { id: string }> = await db('audit_entries')
    .whereIn('id', [...ids])
    .select('id', 'summary', 'summary_text', 'changes', 'links');
  return new Map(rows.map((row) => [row.id, row]));
}

/** One audit entry by id (null when it is gone), for rebuilding its change event elsewhere. */
export async function auditEntryById(
  db: Knex | Knex.Transaction,
  id: string,
): Promise<AuditRow | null> {
  const row = (await db('audit_entries').where({ id }).first()) as AuditRow | undefined;
  return row ?? null;
}

/** The highest audit sequence number written so far (0 on an empty database). */
export async function latestAuditSeq(db: Knex | Knex.Transaction): Promise<number> {
  const row = (await db('audit_entries').max({ seq: 'seq' }).first()) as
    { seq: number | string | null } | undefined;
  return Number(row?.seq ?? 0);
}

/** Audit entries after a sequence number, oldest first, at most `limit` (catching up on events). */
export async function auditEntriesAfter(
  db: Knex | Knex.Transaction,
  seq: number,
  limit: number,
): Promise<AuditRow[]> {
  return (await db('audit_entries')
    .where('seq', '>', seq)
    .orderBy('seq')
    .limit(limit)) as AuditRow[];
}

/**
 * The name of a record of the household whose latest recorded change deleted it, from its image
 * before; null when it was not deleted (it may only be hidden for a moment) or had no name. Names
 * a record that is gone ("Netflix was deleted") instead of showing its id.
 */
export async function deletedRecordName(
  db: Knex | Knex.Transaction,
  householdId: string,
  id: string,
): Promise<string | null> {
  const rows = (await db('audit_entries')
    .where({ household_id: householdId })
    .andWhere('changes', 'like', `%${JSON.stringify(id)}%`)
    .orderBy('seq', 'desc')
    .limit(5)
    .select('changes')) as Array<Pick<AuditRow, 'changes'>>;
  for (const row of rows)
    for (const change of JSON.parse(row.changes) as Change[]) {
      if (change.id !== id) continue;
      const name = change.before?.name;
      return change.after === null && typeof name === 'string' ? name : null;
    }
  return null;
}
