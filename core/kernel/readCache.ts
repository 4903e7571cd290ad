import type { Knex } from 'knex';

import type { Database } from '../store/connection.ts';
import type { EventBus } from './events.ts';

/**
 * One request's freshness check: the first SQLite `data_version` read made for it serves every
 * cached read of that request (the caller's own lookups and the kernel's membership check), since
 * a read sent after the request arrived sees every commit made before it did. Make one when a
 * request arrives (`newFreshness()`), pass it to the reads of that request, and drop it: never
 * keep one across requests or for a long stream, or it would hide later commits of other processes.
 */
export interface Freshness {
  read: Promise<number> | null;
}

export function newFreshness(): Freshness {
  return { read: null };
}

/**
 * Read models kept per household, invalidated by changes, never by time. An entry is dropped:
 * - when a write of this process commits for its household (the kernel calls `changed`, for
 *   every Core on this Database, whatever bus it has);
 * - when another process's change event arrives (PostgreSQL: PostgresEventBus delivers them
 *   through LISTEN/NOTIFY). While that bus is not listening, events can be lost, so nothing is
 *   cached; every (re)connection starts empty;
 * - on SQLite, when `PRAGMA data_version` has moved, checked at each read of the cache (a commit
 *   by any other connection: the CLI beside the server): everything is dropped.
 * Reads inside a write transaction never use it (they must see the transaction's own rows).
 * Entries are frozen: a reader that tried to change one would throw instead of corrupting it.
 * Besides the households' entries, a few entries belong to no one household (which member a
 * platform account is: `getShared`); any change of any household drops all of them.
 */
export class ReadCache {
  /** Per household, per slot: the value and the stamp (such as the day) it was built for. */
  private readonly households = new Map<string, Map<string, { stamp: string; value: unknown }>>();
  /** SQLite's data_version when the entries were filled; PostgreSQL's bus connection. */
  private seen: number | null = null;
  /** SQLite: which writer connection `seen` was read on (DataVersionProbe.generation). */
  private seenConnection = 1;
  /** The buses followed: one that hears every process says which connection it hears on. */
  private readonly buses = new Set<EventBus>();
  /** Entries of no one household (`getShared`), dropped by every change of any household. */
  private shared = new Map<string, unknown>();
  /** SQLite: the knex `PRAGMA data_version` read that has not reached the connection yet. */
  private versionRead: { promise: Promise<number>; sent: boolean } | null = null;

  constructor(private readonly db: Database) {}

  /** Drops what is known of one household (a change committed for it), and every shared entry. */
  changed(householdId: string): void {
    this.households.delete(householdId);
    this.shared = new Map();
  }

  /**
   * Drops every entry of every household: data they all read changed outside any op (the ECB's
   * shared rates, stored by the refresh job).
   */
  changedEverywhere(): void {
    this.households.clear();
    this.shared = new Map();
  }

  /**
   * Drops every shared entry (`getShared`): this process wrote, outside any op, a row one of them
   * describes (an open question of a chat). The whole map goes, so a value being built meanwhile
   * from the old rows is not kept either.
   */
  changedShared(): void {
    this.shared = new Map();
  }

  /** Listens to a bus's change events (another process's, on PostgreSQL); returns the unsubscribe. */
  follow(bus: EventBus): () => void {
    this.buses.add(bus);
    const stop = bus.subscribe((event) => this.changed(event.householdId));
    return () => {
      this.buses.delete(bus);
      stop();
    };
  }

  /**
   * The entry in `slot` of a household, built by `build` when missing, invalidated, or built for
   * another `stamp` (yesterday's rows: one value per slot, never a pile of old days). `db` is what
   * the caller would read with: a transaction bypasses the cache. `strict` entries (who may act:
   * a token, a membership) are cached only where the check is synchronous with the database
   * (SQLite's data_version): a change event from another PostgreSQL process comes a moment after
   * its commit, and a revoked token must be refused on the very next request in any process.
   */
  async get<T>(
    db: Knex | Knex.Transaction,
    householdId: string,
    slot: string,
    stamp: string,
    build: () => Promise<T>,
    options: { strict?: boolean; fresh?: Freshness | undefined } = {},
  ): Promise<T> {
    if (db.isTransaction === true) return build();
    if (options.strict === true && this.db.dialect !== 'sqlite') return build();
    if (!(await this.fresh(options.fresh))) return build();
    let entries = this.households.get(householdId);
    const hit = entries?.get(slot);
    if (hit?.stamp === stamp) return hit.value as T; // stored in this slot with this T (below)
    // Built before it is stored: a change committed meanwhile drops `entries`, not the new value's
    // home, so the value goes into a map that is already gone and is never read.
    if (!entries) {
      entries = new Map();
      this.households.set(householdId, entries);
    }
    const held = entries;
    const value = deepFreeze(await build());
    held.set(slot, { stamp, value });
    return value;
  }

  /**
   * The entry in `slot` that belongs to no household (which member a platform account is), built
   * by `build` when missing. Any change of any household drops every such entry, so it may hold
   * anything a change through an op can alter; `strict` as in `get`. `keep` says which values are
   * stored (a miss usually is not: a row written outside an op, as a test's, must then be seen).
   */
  async getShared<T>(
    db: Knex | Knex.Transaction,
    slot: string,
    build: () => Promise<T>,
    options: { strict?: boolean; keep?: (value: T) => boolean; fresh?: Freshness | undefined } = {},
  ): Promise<T> {
    if (db.isTransaction === true) return build();
    if (options.strict === true && this.db.dialect !== 'sqlite') return build();
    if (!(await this.fresh(options.fresh))) return build();
    const held = this.shared;
    if (held.has(slot)) return held.get(slot) as T; // stored in this slot with this T (below)
    // As in `get`: a change committed while building replaces `shared`, so the value is not kept.
    const value = await build();
    if (options.keep !== undefined && !options.keep(value)) return value;
    held.set(slot, deepFreeze(value));
    return value;
  }

  /**
   * Whether the entries may be used: false when nothing can say whether another process wrote
   * (nothing is cached then); entries filled before another process's commit are dropped here.
   */
  private async fresh(request: Freshness | undefined): Promise<boolean> {
    const version = await this.version(request);
    if (version === null) return false;
    // SQLite: a writer connection knex replaced counts data_version afresh, so a value read on it
    // compares only with values read on it. The first connection is the one every read used
    // until then (through knex or the prepared statement alike).
    const connection = Math.max(1, this.db.dataVersion?.generation ?? 1);
    if (version !== this.seen || connection !== this.seenConnection) {
      this.households.clear();
      this.shared = new Map();
      this.seen = version;
      this.seenConnection = connection;
    }
    return true;
  }

  /**
   * What says whether another process may have written since the entries were filled, or null
   * when nothing can say so (then nothing is cached).
   */
  private async version(request: Freshness | undefined): Promise<number | null> {
    if (this.db.dialect === 'sqlite') {
      if (request === undefined) return this.dataVersion();
      request.read ??= this.dataVersion();
      return request.read;
    }
    for (const bus of this.buses) {
      const connection = bus.hearsEveryProcess?.() ?? null;
      if (connection !== null) return connection;
    }
    return null;
  }

  /**
   * SQLite's `PRAGMA data_version`, always on the writer's one connection: the value is per
   * connection, so only one connection's readings compare; the writer's moves at every commit of
   * any other connection, and read-only connections never commit. It is read by the statement
   * prepared there (core/store/dataVersion.ts), which answers with a value read after the caller
   * asked; through knex while that connection is not open yet.
   */
  private dataVersion(): Promise<number> {
    const probed = this.db.dataVersion?.read();
    if (probed) return probed.catch(() => this.dataVersionThroughKnex());
    return this.dataVersionThroughKnex();
  }

  /**
   * The same read through knex, shared by every caller that asks before the read reaches the
   * connection. A caller that joins a waiting read still gets a value read after it asked (the
   * query is sent later, when the pool hands it the one connection: knex's `query` event), so
   * nothing committed before the ask is missed; a caller asking once the query is sent starts the
   * next read.
   */
  private dataVersionThroughKnex(): Promise<number> {
    const waiting = this.versionRead;
    if (waiting !== null && !waiting.sent) return waiting.promise;
    const read: { promise: Promise<number>; sent: boolean } = {
      promise: Promise.resolve(0),
      sent: false,
    };
    const query = this.db.knex.raw('PRAGMA data_version');
    query.on('query', () => {
      read.sent = true;
    });
    read.promise = Promise.resolve(query).then((rows: Array<{ data_version: number }>) =>
      Number(rows[0]?.data_version ?? 0),
    );
    read.promise
      .finally(() => {
        if (this.versionRead === read) this.versionRead = null;
      })
      .catch(() => undefined);
    this.versionRead = read;
    return read.promise;
  }
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

const caches = new WeakMap<object, ReadCache>();

/** The read cache of a Database (one for every Core over it), made on first use. */
export function readCacheOf(db: Database): ReadCache {
  let cache = caches.get(db.knex);
  if (!cache) {
    cache = new ReadCache(db);
    caches.set(db.knex, cache);
    // Reads on the read pool share it: its freshness is checked on the writer (see `dataVersion`).
    if (db.reader) caches.set(db.reader, cache);
  }
  return cache;
}

/** Drops every entry of the read cache `db` belongs to (`ReadCache.changedEverywhere`), if it has one. */
export function changedEverywhere(db: Knex): void {
  caches.get(db)?.changedEverywhere();
}

/** Drops every shared entry of the read cache `db` belongs to (`ReadCache.changedShared`), if any. */
export function changedShared(db: Knex): void {
  caches.get(db)?.changedShared();
}

/**
 * A household's entry in `slot` (for `stamp`) through the cache of the Database `db` belongs to,
 * or `build` itself when `db` has none (a bare knex) or is a transaction.
 */
export function cachedRead<T>(
  db: Knex | Knex.Transaction,
  householdId: string,
  slot: string,
  stamp: string,
  build: () => Promise<T>,
  options: { strict?: boolean; fresh?: Freshness | undefined } = {},
): Promise<T> {
  const cache = caches.get(db);
  return cache ? cache.get(db, householdId, slot, stamp, build, options) : build();
}

/** An entry of no one household (`ReadCache.getShared`) through `db`'s cache, or `build` itself. */
export function cachedSharedRead<T>(
  db: Knex | Knex.Transaction,
  slot: string,
  build: () => Promise<T>,
  options: { strict?: boolean; keep?: (value: T) => boolean; fresh?: Freshness | undefined } = {},
): Promise<T> {
  const cache = caches.get(db);
  return cache ? cache.getShared(db, slot, build, options) : build();
}
