import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  cachedRead,
  cachedSharedRead,
  newFreshness,
  readCacheOf,
} from '../../../core/kernel/readCache.ts';
import type { Database } from '../../../core/store/connection.ts';
import { freshnessReads as versionReads } from '../../helpers/freshnessReads.ts';
import { openSharedTestDatabase, type SharedTestDatabase } from '../../helpers/sharedDatabase.ts';

/** A value built by counting its builds: each call of `build` is one read of the database. */
function counter(): { builds: number; build: () => Promise<number> } {
  const c = {
    builds: 0,
    build: async () => {
      c.builds += 1;
      return c.builds;
    },
  };
  return c;
}

/**
 * The cache's check that no other process wrote (SQLite's `data_version`) costs one round trip to
 * SQLite's thread: one request shares one such read between its cached reads, and reads asked
 * while one waits for the connection share it, without missing a commit made before they asked.
 * On PostgreSQL strict entries are never cached (a change event comes a moment after its commit).
 */
describe('read cache: one freshness check per request (core/kernel/readCache.ts)', () => {
  let shared: SharedTestDatabase;
  let db: Database;
  let other: Database;
  beforeEach(async () => {
    shared = await openSharedTestDatabase();
    db = shared.open();
    other = shared.open();
    readCacheOf(db);
  });
  afterEach(async () => shared.close());

  const sqlite = () => shared.dialect === 'sqlite';
  /** A commit by another connection (another process on the same file or schema). */
  let commits = 0;
  const commitElsewhere = async () => {
    commits += 1;
    await other.knex('fx_rates').insert({
      id: `fx_test_${commits}`,
      household_id: '',
      date: `2026-01-0${commits}`,
      currency: 'USD',
      per_eur: 1.1,
      source: 'test',
    });
  };

  it('the reads of one request share one data_version read, the kernel’s check and the caller’s', async () => {
    const a = counter();
    const b = counter();
    await cachedRead(db.knex, 'hh_1', 'acting', '', a.build, { strict: true });
    await cachedSharedRead(db.knex, 'account', b.build, { strict: true });
    const fresh = newFreshness();
    const reads = await versionReads(db, async () => {
      await cachedSharedRead(db.knex, 'account', b.build, { strict: true, fresh });
      await cachedRead(db.knex, 'hh_1', 'acting', '', a.build, { strict: true, fresh });
    });
    expect(reads).toBe(sqlite() ? 1 : 0);
    expect([a.builds, b.builds]).toEqual(sqlite() ? [1, 1] : [2, 2]);
    const alone = await versionReads(db, async () => {
      await cachedSharedRead(db.knex, 'account', b.build, { strict: true });
      await cachedRead(db.knex, 'hh_1', 'acting', '', a.build, { strict: true });
    });
    expect(alone).toBe(sqlite() ? 2 : 0);
  });

  it('a request that arrives after another process committed sees the commit', async () => {
    const a = counter();
    expect(await cachedRead(db.knex, 'hh_1', 'slot', '', a.build, { strict: true })).toBe(1);
    await commitElsewhere();
    const fresh = newFreshness();
    expect(await cachedRead(db.knex, 'hh_1', 'slot', '', a.build, { strict: true, fresh })).toBe(2);
    expect(await cachedRead(db.knex, 'hh_1', 'slot', '', a.build, { strict: true, fresh })).toBe(
      sqlite() ? 2 : 3,
    );
  });

  it('reads asked while one is on its way share the next one, and still see commits made before they asked', async () => {
    const a = counter();
    await cachedRead(db.knex, 'hh_1', 'slot', '', a.build, { strict: true });
    await commitElsewhere();
    // A write transaction holds the writer's one knex connection: the check, prepared on that
    // connection beside knex's pool, does not wait for it.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const busy = db.knex.transaction(async (trx) => {
      await trx.raw('select 1');
      await held;
    });
    const reads = await versionReads(db, async () => {
      const asked = Array.from({ length: 5 }, () =>
        cachedRead(db.knex, 'hh_1', 'slot', '', a.build, { strict: true }),
      );
      const values = await Promise.all(asked);
      // Every one of them saw the commit made before it asked: none answered the old value.
      expect(values.every((v) => v >= 2)).toBe(true);
      release();
      await busy;
    });
    // The first sends a read; the four asked while it was on its way share the next one.
    expect(reads).toBe(sqlite() ? 2 : 0);
  });

  it('an entry of no one household is dropped by a change of any household, and a miss is not kept when told so', async () => {
    const b = counter();
    await cachedSharedRead(db.knex, 'account', b.build);
    await cachedSharedRead(db.knex, 'account', b.build);
    expect(b.builds).toBe(sqlite() ? 1 : 2);
    readCacheOf(db).changed('hh_other');
    await cachedSharedRead(db.knex, 'account', b.build);
    expect(b.builds).toBe(sqlite() ? 2 : 3);
    const misses = { builds: 0 };
    const miss = async () => {
      misses.builds += 1;
      return null;
    };
    for (let i = 0; i < 3; i += 1)
      expect(await cachedSharedRead(db.knex, 'missing', miss, { keep: (v) => v !== null })).toBe(
        null,
      );
    expect(misses.builds).toBe(3);
  });
});
