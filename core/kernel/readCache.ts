import type { Knex } from 'knex';

import type { Database } from '../store/connection.ts';
import type { EventBus } from './events.ts';

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
 */
export class ReadCache {
  /** Per household, per slot: the value and the stamp (such as the day) it was built for. */
  private readonly households = new Map<string, Map<string, { stamp: string; value: unknown }>>();
  /** SQLite's data_version when the entries were filled; PostgreSQL's bus connection. */
  private seen: number | null = null;
  /** The buses followed: one that hears every process says which connection it hears on. */
  private readonly buses = new Set<EventBus>();

  constructor(private readonly db: Database) {}

  /** Drops what is known of one household (a change committed for it). */
  changed(householdId: string): void {
    this.households.delete(householdId);
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
    options: { strict?: boolean } = {},
  ): Promise<T> {
    if (db.isTransaction === true) return build();
    if (options.strict === true && this.db.dialect !== 'sqlite') return build();
    const version = await this.version();
    if (version === null) return build();
    if (version !== this.seen) {
      this.households.clear();
      this.seen = version;
    }
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
   * What says whether another process may have written since the entries were filled, or null
   * when nothing can say so (then nothing is cached).
   */
  private async version(): Promise<number | null> {
    if (this.db.dialect === 'sqlite') {
      const rows = (await this.db.knex.raw('PRAGMA data_version')) as Array<{
        data_version: number;
      }>;
      return Number(rows[0]?.data_version ?? 0);
    }
    for (const bus of this.buses) {
      const connection = bus.hearsEveryProcess?.() ?? null;
      if (connection !== null) return connection;
    }
    return null;
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
  }
  return cache;
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
  options: { strict?: boolean } = {},
): Promise<T> {
  const cache = caches.get(db);
  return cache ? cache.get(db, householdId, slot, stamp, build, options) : build();
}
