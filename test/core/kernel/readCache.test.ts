import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { newcomerActor, type Actor } from '../../../core/kernel/actor.ts';
import { Core } from '../../../core/kernel/core.ts';
import type { EventBus } from '../../../core/kernel/events.ts';
import { cachedRead } from '../../../core/kernel/readCache.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import type { Database } from '../../../core/store/connection.ts';
import { runExhale } from '../../helpers/exhaleProcess.ts';
import {
  busHeard as changeHeard,
  type ProcessCore,
  processCores,
} from '../../helpers/processCores.ts';
import { openSharedTestDatabase, type SharedTestDatabase } from '../../helpers/sharedDatabase.ts';
import { TEST_NOW } from '../../helpers/testCore.ts';

type AppCore = Core<typeof catalog>;

/** Counts the statements that read the subscriptions table through `db` while `work` runs. */
async function subscriptionReads(db: Database, work: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const listener = (q: { sql: string }) => {
    if (/from [`"]subscriptions[`"]/.test(q.sql)) count += 1;
  };
  db.knex.on('query', listener);
  try {
    await work();
  } finally {
    db.knex.off('query', listener);
  }
  return count;
}

const names = async (core: AppCore, actor: Actor, days = 60): Promise<string[]> =>
  (await core.invoke('get_upcoming', actor, { days })).output.items.map((i) => i.subscription_name);

describe('read models per household (core/kernel/readCache.ts)', () => {
  let shared: SharedTestDatabase;
  /** A Core as another process has it: its own pool, and on PostgreSQL its own listening bus. */
  const cores = processCores(() => shared);
  const processCore = (): Promise<ProcessCore> => cores.open();

  let a: { core: AppCore; db: Database; bus: EventBus };
  let b: { core: AppCore; db: Database; bus: EventBus };
  let owner: Actor;
  let householdId = '';

  beforeEach(async () => {
    shared = await openSharedTestDatabase();
    a = await processCore();
    b = await processCore();
    const created = await a.core.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      owner_name: 'Ana',
    });
    householdId = created.output.household.id;
    owner = {
      kind: 'member',
      householdId,
      memberId: created.output.member.id,
      role: 'owner',
      scope: 'trusted',
      channel: 'cli',
      locale: 'en',
    };
    await a.core.invoke('create_subscription', owner, {
      name: 'Netflix',
      amount: '9.99',
      first_charge_date: '2026-01-10',
    });
  });
  afterEach(async () => {
    await cores.close();
    await shared.close();
  });

  it('reads the subscriptions once while nothing changes, and again after a write of its own', async () => {
    expect(await names(a.core, owner)).toEqual(['Netflix', 'Netflix']);
    expect(await subscriptionReads(a.db, () => names(a.core, owner))).toBe(0);
    await a.core.invoke('create_subscription', owner, {
      name: 'Spotify',
      amount: '5',
      first_charge_date: '2026-01-15',
    });
    expect(await names(a.core, owner)).toContain('Spotify');
  });

  it('sees on its next read a write committed by another process (SQLite data_version, PostgreSQL LISTEN/NOTIFY)', async () => {
    await names(a.core, owner); // fills A's read model
    const heard = shared.dialect === 'postgres' ? changeHeard(a.bus, householdId) : null;
    await b.core.invoke('create_subscription', owner, {
      name: 'Spotify',
      amount: '5',
      first_charge_date: '2026-01-15',
    });
    await heard; // PostgreSQL: the event is what tells A; SQLite needs no wait at all
    expect(await names(a.core, owner)).toContain('Spotify');
    const { items } = (await a.core.invoke('get_upcoming', owner, { days: 60 })).output;
    expect(items.find((i) => i.subscription_name === 'Spotify')?.amount).toBe('5.00');
  });

  it('sees an update and a delete by another process too, and the totals follow', async () => {
    const [netflix] = (await a.core.invoke('list_subscriptions', owner, {})).output.items;
    await a.core.invoke('get_totals', owner, {});
    let heard = shared.dialect === 'postgres' ? changeHeard(a.bus, householdId) : null;
    await b.core.invoke('update_subscription', owner, { id: netflix?.id, name: 'Netflix 4K' });
    await heard;
    expect(await names(a.core, owner)).toEqual(['Netflix 4K', 'Netflix 4K']);
    heard = shared.dialect === 'postgres' ? changeHeard(a.bus, householdId) : null;
    await b.core.invoke('delete_subscription', owner, { id: netflix?.id });
    await heard;
    expect(await names(a.core, owner)).toEqual([]);
    expect((await a.core.invoke('get_totals', owner, {})).output.subscription_count).toBe(0);
  });

  it('keeps another member’s private subscription out of the read model they share', async () => {
    const invite = await a.core.invoke('create_invite', owner, {});
    const joined = await a.core.invoke('join_household', newcomerActor('cli', 'en'), {
      code: invite.output.code,
      name: 'Bea',
    });
    const bea: Actor = { ...owner, memberId: joined.output.member.id, role: 'member' };
    await a.core.invoke('create_subscription', bea, {
      name: 'Diary',
      amount: '3',
      first_charge_date: '2026-01-12',
      private: true,
    });
    expect(await names(a.core, bea)).toContain('Diary');
    expect(await names(a.core, owner)).not.toContain('Diary');
    expect(await names(a.core, { ...bea, audience: 'shared' })).not.toContain('Diary');
  });

  it('never serves a read inside a write transaction from the cache', async () => {
    let builds = 0;
    const build = async () => {
      builds += 1;
      return [builds];
    };
    await a.db.knex.transaction(async (trx) => {
      await cachedRead(trx, householdId, 'test', 'x', build);
      await cachedRead(trx, householdId, 'test', 'x', build);
    });
    expect(builds).toBe(2);
    await cachedRead(a.db.knex, householdId, 'test', 'x', build);
    const again = await cachedRead(a.db.knex, householdId, 'test', 'x', build);
    expect(builds).toBe(3);
    expect(Object.isFrozen(again)).toBe(true);
    expect(() => (again as number[]).push(1)).toThrow(TypeError);
  });

  it('with a bus that hears no other process, caches on SQLite (data_version tells) and nothing on PostgreSQL', async () => {
    const alone = new Core({ db: shared.open(), catalog, clock: () => TEST_NOW });
    await names(alone, owner);
    expect(await subscriptionReads(alone.db, () => names(alone, owner))).toBe(
      shared.dialect === 'postgres' ? 1 : 0,
    );
    await b.core.invoke('create_subscription', owner, {
      name: 'Spotify',
      amount: '5',
      first_charge_date: '2026-01-15',
    });
    expect(await names(alone, owner)).toContain('Spotify'); // no event awaited: none would come
  });

  it('sees on its next read what an `exhale op` process wrote beside it', async () => {
    await names(a.core, owner);
    const env: Record<string, string> =
      shared.dialect === 'sqlite'
        ? { EXHALE_DATA_DIR: (shared.sqliteFile ?? '').replace(/\/exhale\.sqlite$/, '') }
        : {
            EXHALE_DATABASE_URL: `${shared.url ?? ''}?options=${encodeURIComponent(`-c search_path=${shared.schema ?? ''}`)}`,
          };
    const heard = shared.dialect === 'postgres' ? changeHeard(a.bus, householdId, 30_000) : null;
    const result = await runExhale(env, [
      'op',
      'create_subscription',
      JSON.stringify({ name: 'Disney+', amount: '8.99', first_charge_date: '2026-01-20' }),
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    await heard;
    expect(await names(a.core, owner)).toContain('Disney+');
  });
});
