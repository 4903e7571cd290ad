import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type Actor, memberActor, newcomerActor } from '../../../../core/kernel/actor.ts';
import type { Database } from '../../../../core/store/connection.ts';
import {
  changeHeard,
  type AppCore,
  type ProcessCore,
  processCores,
} from '../../../helpers/processCores.ts';
import {
  openSharedTestDatabase,
  type SharedTestDatabase,
} from '../../../helpers/sharedDatabase.ts';
import { loadEcbFixtures } from '../../fx/fixtures.ts';

/** Counts the statements `work` sends through `db` (both pools) whose SQL matches `pattern`. */
async function statements(
  db: Database,
  pattern: RegExp,
  work: () => Promise<unknown>,
): Promise<number> {
  let count = 0;
  const listener = (q: { sql: string }) => {
    if (pattern.test(q.sql)) count += 1;
  };
  const pools = [db.knex, ...(db.reader ? [db.reader] : [])];
  for (const pool of pools) pool.on('query', listener);
  try {
    await work();
  } finally {
    for (const pool of pools) pool.off('query', listener);
  }
  return count;
}

/**
 * get_totals sums the household's read model (its rows at today's price, shares, tags and names,
 * kept until a change) instead of asking the database per call: the same figures, each viewer's
 * privacy, and another process's change (or a rate the ECB refresh stored) on the next call.
 */
describe('get_totals from the read model (core/ops/insights/_lib/load.ts)', () => {
  let shared: SharedTestDatabase;
  const cores = processCores(() => shared);
  let a: ProcessCore;
  let b: ProcessCore;
  let owner: Actor;
  let bea: Actor;
  let householdId = '';

  const totals = async (core: AppCore, actor: Actor, input: Record<string, unknown> = {}) =>
    (await core.invoke('get_totals', actor, input)).output;

  beforeEach(async () => {
    shared = await openSharedTestDatabase();
    a = await cores.open();
    b = await cores.open();
    const created = await a.core.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      owner_name: 'Ana',
    });
    householdId = created.output.household.id;
    owner = memberActor({ ...created.output.member, household_id: householdId }, 'cli');
    const invite = await a.core.invoke('create_invite', owner, {});
    const joined = await a.core.invoke('join_household', newcomerActor('cli', 'en'), {
      code: invite.output.code,
      name: 'Bea',
    });
    bea = memberActor({ ...joined.output.member, household_id: householdId }, 'cli');
    await a.core.invoke('create_subscription', owner, {
      name: 'Netflix',
      amount: '12.00',
      first_charge_date: '2026-01-10',
      tags: ['tv'],
    });
    await a.core.invoke('create_subscription', bea, {
      name: 'Diary',
      amount: '3.00',
      first_charge_date: '2026-01-12',
      private: true,
    });
  });
  afterEach(async () => {
    await cores.close();
    await shared.close();
  });

  it('gives each viewer what they may see: Bea’s private subscription counts for her only, and not before a shared audience', async () => {
    expect((await totals(a.core, owner)).totals.monthly).toBe('12.00');
    expect((await totals(a.core, bea)).totals.monthly).toBe('15.00');
    expect((await totals(a.core, { ...bea, audience: 'shared' })).totals.monthly).toBe('12.00');
    // Asked again in the other order, from what the read model keeps.
    expect((await totals(a.core, bea)).totals.monthly).toBe('15.00');
    expect((await totals(a.core, owner)).totals.monthly).toBe('12.00');
  });

  it('reads no subscription, share, tag or member row while nothing changes', async () => {
    await totals(a.core, owner, { group_by: 'tag' });
    const reads = await statements(
      a.db,
      /from [`"](subscriptions|subscription_shares|subscription_tags|members|tags)[`"]/,
      () => totals(a.core, owner, { group_by: 'tag' }),
    );
    expect(reads).toBe(0);
  });

  it('sees on its next call a price, a share, a tag and a name another process changed', async () => {
    const before = await totals(a.core, owner, { group_by: 'tag' });
    expect(before.groups.map((g) => [g.name, g.monthly])).toEqual([['tv', '12.00']]);
    const netflix = (await b.core.invoke('list_subscriptions', owner, {})).output.items[0];
    let heard = changeHeard(shared, a.bus, householdId);
    await b.core.invoke('update_subscription', owner, {
      id: netflix?.id,
      amount: '20.00',
      price_effective_date: '2026-03-01',
      tags: ['film'],
      shares: [
        { member_id: owner.memberId, percent: '50' },
        { member_id: bea.memberId, percent: '50' },
      ],
    });
    await heard; // PostgreSQL: the event is what tells A; SQLite needs no wait at all
    const after = await totals(a.core, owner, { group_by: 'tag' });
    expect(after.totals.monthly).toBe('20.00');
    expect(after.groups.map((g) => [g.name, g.monthly])).toEqual([['film', '20.00']]);
    expect(after.members.map((m) => [m.name, m.monthly])).toEqual([
      ['Ana', '10.00'],
      ['Bea', '10.00'],
    ]);
    heard = changeHeard(shared, a.bus, householdId);
    await b.core.invoke('update_member', bea, { id: bea.memberId, name: 'Beatriz' });
    await heard;
    expect((await totals(a.core, owner)).members.map((m) => m.name)).toEqual(['Ana', 'Beatriz']);
  });

  it('uses on its next call a manual rate set by another process and the rates the ECB refresh stores', async () => {
    await a.core.invoke('create_subscription', owner, {
      name: 'Hulu',
      amount: '10.00',
      currency: 'XAF',
      first_charge_date: '2026-01-15',
    });
    expect((await totals(a.core, owner)).conversion.partial).toBe(true);
    const heard = changeHeard(shared, a.bus, householdId);
    await b.core.invoke('set_exchange_rate', owner, { currency: 'XAF', rate: '655.957' });
    await heard;
    const manual = await totals(a.core, owner);
    expect(manual.conversion.partial).toBe(false);
    expect(manual.totals.monthly).toBe('12.02'); // 12.00 EUR + 10.00 XAF at 655.957 per euro

    await a.core.invoke('create_subscription', owner, {
      name: 'Disney',
      amount: '10.00',
      currency: 'USD',
      first_charge_date: '2026-01-15',
    });
    expect((await totals(a.core, owner)).conversion.partial).toBe(true);
    // The refresh's store, in the other process: no change event. SQLite's data_version tells A;
    // on PostgreSQL rates are read on every call.
    await loadEcbFixtures(b.db);
    expect((await totals(a.core, owner)).conversion.partial).toBe(false);
  });
});
