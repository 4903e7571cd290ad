import type { Knex } from 'knex';

import { OpError } from '../errors/index.ts';
import type { Dialect } from './connection.ts';

/** A stored row as the database returns it: text, numbers and nulls only (see the migration). */
export type Row = Record<string, string | number | null>;

/** Tables whose writes are recorded for audit and undo. Everything a person changes lives here. */
export const TRACKED_TABLES = [
  'households',
  'members',
  'member_identities',
  'invites',
  'categories',
  'payment_methods',
  'tags',
  'subscriptions',
  'subscription_tags',
  'subscription_shares',
  'charges',
  'price_changes',
  'fx_rates',
  'tokens',
  'assistant_settings',
  'statement_imports',
  'one_time_codes',
  'web_sessions',
  'calendar_feeds',
  'oauth_grants',
] as const;
export type TrackedTable = (typeof TRACKED_TABLES)[number];

/** Where each tracked table's rows are referred to: a reverted insert must leave no reference behind. */
const REFERENCES: Partial<Record<TrackedTable, ReadonlyArray<readonly [TrackedTable, string]>>> = {
  households: [['members', 'household_id']],
  members: [
    ['member_identities', 'member_id'],
    ['subscriptions', 'member_id'],
    ['subscription_shares', 'member_id'],
    ['tokens', 'member_id'],
    ['one_time_codes', 'member_id'],
    ['web_sessions', 'member_id'],
    ['calendar_feeds', 'member_id'],
    ['oauth_grants', 'member_id'],
  ],
  categories: [['subscriptions', 'category_id']],
  payment_methods: [['subscriptions', 'payment_method_id']],
  tags: [['subscription_tags', 'tag_id']],
  subscriptions: [
    ['charges', 'subscription_id'],
    ['price_changes', 'subscription_id'],
    ['subscription_tags', 'subscription_id'],
    ['subscription_shares', 'subscription_id'],
  ],
};

/** One row changed by an op: its image before and after (null = did not exist). */
export interface Change {
  table: TrackedTable;
  id: string;
  before: Row | null;
  after: Row | null;
}

/** Names the record an undo stumbles on: its kind (`table`, worded per reader) and its name if it has one. */
function recordParams(change: Change): Record<string, string> {
  const image = change.after ?? change.before;
  const name = image && typeof image.name === 'string' ? ` "${image.name}"` : '';
  return { table: change.table, name };
}

/** The row with its keys sorted, so rows from SQLite and PostgreSQL compare and serialise alike. */
export function canonicalRow(row: Row): Row {
  const out: Row = {};
  for (const key of Object.keys(row).sort()) out[key] = row[key] ?? null;
  return out;
}

export function sameRow(a: Row | null, b: Row | null): boolean {
  if (a === null || b === null) return a === b;
  return JSON.stringify(canonicalRow(a)) === JSON.stringify(canonicalRow(b));
}

/**
 * The only way ops write: every insert, update and delete goes through here inside the op's
 * transaction and is recorded with its before and after image. Reads use `from()`.
 *
 * Before-images are the rows as they were when *this* transaction changed them. On PostgreSQL
 * (read committed) another transaction may change a row between our read and our write, so a
 * write reads its before-image with `SELECT … FOR UPDATE`: the row is locked until commit, and
 * the image is the latest committed version. SQLite needs no row locks: a write transaction
 * holds the database's write lock from its start (`BEGIN IMMEDIATE`, see connection.ts).
 */
export class TrackedTx {
  readonly changes: Change[] = [];
  private readonly locking: boolean;

  /** A transaction for writes; plain knex for reads, which run outside one (and lock nothing). */
  constructor(
    readonly trx: Knex | Knex.Transaction,
    dialect: Dialect = 'sqlite',
  ) {
    this.locking = dialect === 'postgres' && trx.isTransaction === true;
  }

  /**
   * A query builder for reads, typed by the row it reads (`from<AuditRow>('audit_entries')`), so
   * results need no cast. Writing through it would escape the audit, so don't.
   */
  from<T extends object = Row>(table: string): Knex.QueryBuilder<T, T[]> {
    return this.trx<T, T[]>(table);
  }

  /**
   * `query` with its rows of `table` locked until this transaction ends, when it is a write on a
   * database with row locks (PostgreSQL); `query` itself otherwise. An op that reads a row to
   * compute what it writes reads it through here, so no other writer changes it in between
   * (`requireSubscription` does for the subscription an op acts on).
   */
  locked<TRecord extends object, TResult>(
    query: Knex.QueryBuilder<TRecord, TResult>,
    table: string,
  ): Knex.QueryBuilder<TRecord, TResult> {
    return this.locking ? query.forUpdate(table) : query;
  }

  async get(table: TrackedTable, id: string): Promise<Row | null> {
    const row = (await this.trx(table).where({ id }).first()) as Row | undefined;
    return row ? canonicalRow(row) : null;
  }

  /** The row as this transaction is about to change it, locked (see the class comment). */
  private async getForWrite(table: TrackedTable, id: string): Promise<Row | null> {
    const row = (await this.locked(this.trx(table).where({ id }), table).first()) as
      Row | undefined;
    return row ? canonicalRow(row) : null;
  }

  async insert(table: TrackedTable, row: Row & { id: string }): Promise<Row> {
    await this.trx(table).insert(row);
    const after = await this.get(table, row.id);
    this.record(table, row.id, null, after);
    return after ?? row;
  }

  /** Updates one row by id; `undefined` values in the patch are ignored. */
  async update(
    table: TrackedTable,
    id: string,
    patch: Record<string, string | number | null | undefined>,
  ): Promise<Row> {
    const before = await this.getForWrite(table, id);
    if (!before) throw new OpError('internal');
    const clean = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    if (Object.keys(clean).length > 0) await this.trx(table).where({ id }).update(clean);
    const after = await this.get(table, id);
    this.record(table, id, before, after);
    return after ?? before;
  }

  async remove(table: TrackedTable, id: string): Promise<Row | null> {
    const before = await this.getForWrite(table, id);
    if (!before) return null;
    await this.trx(table).where({ id }).delete();
    this.record(table, id, before, null);
    return before;
  }

  /** Removes every row matching `where`, each recorded, and returns how many. */
  async removeWhere(table: TrackedTable, where: Record<string, string | number>): Promise<number> {
    // Locked all at once in id order, so two transactions removing overlapping sets never deadlock.
    const rows = (await this.locked(
      this.trx(table).where(where).orderBy('id').select('id'),
      table,
    )) as Array<{ id: string }>;
    for (const row of rows) await this.remove(table, row.id);
    return rows.length;
  }

  /** Applies recorded changes backwards, refusing when a row is no longer as the change left it. */
  async revert(changes: readonly Change[]): Promise<void> {
    for (const change of [...changes].reverse()) {
      // Locked: a concurrent writer (or a second undo of the same entry) waits, then sees our result.
      const current = await this.getForWrite(change.table, change.id);
      if (!sameRow(current, change.after)) {
        throw new OpError('undo_conflict', 'errors.undo_conflict', recordParams(change));
      }
      if (change.before === null) await this.remove(change.table, change.id);
      else if (change.after === null)
        await this.insert(change.table, { ...change.before, id: change.id });
      else await this.update(change.table, change.id, change.before);
    }
    // Reverting an insert must not leave later rows pointing at nothing (a charge recorded on a
    // subscription whose creation is undone, a subscription filed in an undone category).
    for (const change of changes) {
      if (change.before !== null) continue;
      for (const [table, column] of REFERENCES[change.table] ?? []) {
        const used = (await this.trx(table).where(column, change.id).first('id')) as
          { id: string } | undefined;
        if (used)
          throw new OpError('undo_conflict', 'errors.undo_referenced', recordParams(change));
      }
    }
  }

  private record(table: TrackedTable, id: string, before: Row | null, after: Row | null): void {
    const existing = this.changes.find((c) => c.table === table && c.id === id);
    if (!existing) {
      this.changes.push({ table, id, before, after });
      return;
    }
    existing.after = after;
    if (sameRow(existing.before, existing.after))
      this.changes.splice(this.changes.indexOf(existing), 1);
  }
}
