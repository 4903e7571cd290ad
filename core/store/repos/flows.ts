import type { Knex } from 'knex';
import type { z } from 'zod';

/**
 * The `flows` table: short-lived state with an expiry (button presses, awaited answers, pending
 * changes), in the database so any process can pick it up and a restart loses nothing. This file is
 * the only code that writes `flows` SQL: every kind is declared once with `defineFlow`, and its
 * payload is parsed by the kind's schema when read back (a row that does not parse is treated as
 * gone, never cast).
 */

/** A row as stored: text and nulls only; `payload` is JSON. */
interface FlowRow {
  id: string;
  household_id: string | null;
  member_id: string | null;
  kind: string;
  payload: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** A row read back, its payload parsed by its kind's schema. */
export interface Flow<P> {
  id: string;
  householdId: string | null;
  memberId: string | null;
  payload: P;
  createdAt: string;
  expiresAt: string;
  /** When the row was claimed (used up); null while it is still open. */
  usedAt: string | null;
}

/** Something a knex query can run on: the connection or a transaction inside it. */
type Db = Knex | Knex.Transaction;

/** The typed store of one kind of flow. Every method is scoped to that kind. */
export interface FlowKind<P> {
  readonly kind: string;
  /** How long a row is usable after it is saved (a save may ask for another time). */
  readonly ttlMs: number;
  /** How long past its expiry a row is kept before the purge deletes it (Undo, memory). */
  readonly keepMs: number;
  save(
    db: Db,
    entry: {
      id: string;
      householdId: string | null;
      memberId: string | null;
      payload: P;
      now: Date;
      ttlMs?: number;
    },
  ): Promise<Flow<P>>;
  /** Saves a row in place of an earlier one with the same id (one transaction). */
  replace(db: Knex, entry: Parameters<FlowKind<P>['save']>[1]): Promise<Flow<P>>;
  /** The row, or null when it is absent, of another kind, or its payload no longer parses. */
  load(db: Db, id: string): Promise<Flow<P> | null>;
  /** Whether an unexpired row with this id exists (reads only the expiry, not the payload). */
  isOpen(db: Db, id: string, now: Date): Promise<boolean>;
  /**
   * Marks a row used; true only for the one caller, in any process, that got there first. With
   * `unexpired`, an expired row cannot be claimed either; with `payload`, the row's payload is
   * replaced in the same statement (what the claim decided).
   */
  claim(
    db: Db,
    id: string,
    now: Date,
    options?: { unexpired?: boolean; payload?: P },
  ): Promise<boolean>;
  /** Gives a claimed row back (what it stood for failed, so it may be tried again). */
  release(db: Db, id: string): Promise<void>;
  /** Replaces a row's payload (what happened to it since), used or not. */
  settle(db: Db, id: string, payload: P): Promise<void>;
  /** Deletes a row; with `createdAt`, only that save of it. True when a row was deleted. */
  remove(db: Db, id: string, options?: { createdAt?: string }): Promise<boolean>;
  /** A member's rows created since an instant, newest first. */
  recent(db: Db, where: { memberId: string; since: Date; limit: number }): Promise<Flow<P>[]>;
  /** Deletes this kind's rows past their expiry and `keepMs`; returns how many. */
  purge(db: Db, now: Date): Promise<number>;
}

/**
 * Declares a kind of flow: its name in the `kind` column, how long a row lasts, how long it is kept
 * past that, and the schema its payload is written and read with.
 */
export function defineFlow<S extends z.ZodType<unknown>>(definition: {
  kind: string;
  ttlMs: number;
  keepMs?: number;
  payload: S;
}): FlowKind<z.output<S>> {
  type P = z.output<S>;
  const { kind, ttlMs, payload: schema } = definition;
  const keepMs = definition.keepMs ?? 0;

  const fromRow = (row: FlowRow): Flow<P> | null => {
    let json: unknown;
    try {
      json = JSON.parse(row.payload);
    } catch {
      return null;
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) return null;
    return {
      id: row.id,
      householdId: row.household_id,
      memberId: row.member_id,
      payload: parsed.data,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      usedAt: row.used_at,
    };
  };
  // A payload is checked on the way in too: a row this code wrote always reads back.
  const serialize = (value: P): string => JSON.stringify(schema.parse(value));

  const store: FlowKind<P> = {
    kind,
    ttlMs,
    keepMs,
    async save(db, entry) {
      const row: FlowRow = {
        id: entry.id,
        household_id: entry.householdId,
        member_id: entry.memberId,
        kind,
        payload: serialize(entry.payload),
        expires_at: new Date(entry.now.getTime() + (entry.ttlMs ?? ttlMs)).toISOString(),
        used_at: null,
        created_at: entry.now.toISOString(),
      };
      await db('flows').insert(row);
      const saved = fromRow(row);
      if (!saved) throw new Error(`flow ${kind}: a saved payload does not read back`);
      return saved;
    },
    async replace(db, entry) {
      return db.transaction(async (trx) => {
        await trx('flows').where({ id: entry.id }).delete();
        return store.save(trx, entry);
      });
    },
    async load(db, id) {
      const row = (await db('flows').where({ id, kind }).first()) as FlowRow | undefined;
      return row ? fromRow(row) : null;
    },
    async isOpen(db, id, now) {
      const row = (await db('flows').where({ id, kind }).first('expires_at')) as
        { expires_at: string } | undefined;
      return row !== undefined && row.expires_at > now.toISOString();
    },
    async claim(db, id, now, options = {}) {
      const query = db('flows').where({ id, kind }).whereNull('used_at');
      if (options.unexpired) query.andWhere('expires_at', '>', now.toISOString());
      const patch: Partial<FlowRow> = { used_at: now.toISOString() };
      if (options.payload !== undefined) patch.payload = serialize(options.payload);
      return Number(await query.update(patch)) === 1;
    },
    async release(db, id) {
      await db('flows').where({ id, kind }).update({ used_at: null });
    },
    async settle(db, id, value) {
      await db('flows')
        .where({ id, kind })
        .update({ payload: serialize(value) });
    },
    async remove(db, id, options = {}) {
      const query = db('flows').where({ id, kind });
      if (options.createdAt !== undefined) query.andWhere({ created_at: options.createdAt });
      return Number(await query.delete()) > 0;
    },
    async recent(db, where) {
      const rows = (await db('flows')
        .where({ kind, member_id: where.memberId })
        .andWhere('created_at', '>=', where.since.toISOString())
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(where.limit)) as FlowRow[];
      return rows.flatMap((row) => fromRow(row) ?? []);
    },
    async purge(db, now) {
      const before = new Date(now.getTime() - keepMs).toISOString();
      return Number(
        await db('flows').where({ kind }).andWhere('expires_at', '<=', before).delete(),
      );
    },
  };
  return store;
}

/**
 * Deletes every row past its expiry, of any kind (kinds no code reads any more included); a kind in
 * `kept` only once its `keepMs` has passed too. Returns how many rows went.
 */
export async function purgeFlows(
  db: Knex,
  now: Date,
  kept: ReadonlyArray<Pick<FlowKind<unknown>, 'kind' | 'keepMs' | 'purge'>>,
): Promise<number> {
  let deleted = 0;
  const longer = kept.filter((k) => k.keepMs > 0);
  for (const k of longer) deleted += await k.purge(db, now);
  const rest = db('flows').where('expires_at', '<=', now.toISOString());
  if (longer.length > 0)
    rest.whereNotIn(
      'kind',
      longer.map((k) => k.kind),
    );
  deleted += Number(await rest.delete());
  return deleted;
}
