import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type Actor, memberActor, newcomerActor } from '../../../../core/kernel/actor.ts';
import type { Core } from '../../../../core/kernel/core.ts';
import type { EventBus } from '../../../../core/kernel/events.ts';
import type { catalog } from '../../../../core/ops/catalog.ts';
import type { Subscription } from '../../../../core/domain/schemas.ts';
import type { Database } from '../../../../core/store/connection.ts';
import {
  busHeard as changeHeard,
  type ProcessCore,
  processCores,
} from '../../../helpers/processCores.ts';
import {
  openSharedTestDatabase,
  type SharedTestDatabase,
} from '../../../helpers/sharedDatabase.ts';

type AppCore = Core<typeof catalog>;
type Input = Record<string, unknown>;

/** The order list_subscriptions promises by next charge: the date shown (none last), ties by id. */
function byShownNextCharge(items: Subscription[], order: 'asc' | 'desc'): string[] {
  const sign = order === 'asc' ? 1 : -1;
  const key = (s: Subscription) => s.next_charge_date ?? '9999';
  return [...items]
    .sort(
      (a, b) => sign * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) || (a.id < b.id ? -1 : 1),
    )
    .map((s) => s.id);
}

/**
 * list_subscriptions by next charge reads the page's ids from the household's read model (each
 * next charge derived once for the day) instead of every row and series per call: the same
 * filters, privacy, paging and ties as the other sorts, and another process's change seen on the
 * next call (SQLite data_version, PostgreSQL LISTEN/NOTIFY).
 */
describe('list_subscriptions by next charge (core/ops/subscriptions/_lib/listOrder.ts)', () => {
  let shared: SharedTestDatabase;
  /** A Core as another process has it: its own pool, and on PostgreSQL its own listening bus. */
  const cores = processCores(() => shared);
  const processCore = (): Promise<ProcessCore> => cores.open();

  let a: { core: AppCore; db: Database; bus: EventBus };
  let b: { core: AppCore; db: Database; bus: EventBus };
  let owner: Actor;
  let bea: Actor;
  let householdId = '';
  let categoryId = '';
  let tagId = '';

  const list = async (core: AppCore, actor: Actor, input: Input) =>
    (await core.invoke('list_subscriptions', actor, input)).output;
  /** Every page of `size` in turn, concatenated. */
  async function paged(actor: Actor, input: Input, size: number): Promise<string[]> {
    const ids: string[] = [];
    for (let offset = 0; ; offset += size) {
      const page = await list(a.core, actor, { ...input, limit: size, offset });
      ids.push(...page.items.map((s) => s.id));
      if (offset + size >= page.total) return ids;
    }
  }

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
    owner = memberActor({ ...created.output.member, household_id: householdId }, 'cli');
    const invite = await a.core.invoke('create_invite', owner, {});
    const joined = await a.core.invoke('join_household', newcomerActor('cli', 'en'), {
      code: invite.output.code,
      name: 'Bea',
    });
    bea = memberActor({ ...joined.output.member, household_id: householdId }, 'cli');
    // Today is 2026-03-02 (TEST_NOW). Same dates on purpose: ties go by id.
    const add = (actor: Actor, input: Input) =>
      a.core.invoke('create_subscription', actor, { amount: '5.00', ...input });
    const netflix = await add(owner, {
      name: 'Netflix',
      first_charge_date: '2026-01-10',
      category: 'Video',
    });
    categoryId = netflix.output.category?.id ?? '';
    const disney = await add(owner, {
      name: 'Disney',
      first_charge_date: '2026-02-10',
      tags: ['Family'],
    });
    tagId = disney.output.tags[0]?.id ?? '';
    await add(owner, { name: 'Yearly', first_charge_date: '2025-03-05', cycle: { unit: 'year' } });
    await add(owner, { name: 'Gym', first_charge_date: '2026-01-03' });
    // A trial is charged from its end, the date the list shows and sorts by.
    await add(owner, {
      name: 'Trial',
      first_charge_date: '2026-01-04',
      status: 'trial',
      trial_ends_on: '2026-03-20',
    });
    await add(bea, {
      name: 'Bea public',
      first_charge_date: '2026-01-10',
      category_id: categoryId,
    });
    await add(bea, { name: 'Bea diary', first_charge_date: '2026-01-03', private: true });
    const paused = await add(owner, { name: 'Paused', first_charge_date: '2026-01-07' });
    await a.core.invoke('pause_subscription', owner, { id: paused.output.id });
    const ending = await add(owner, { name: 'Ending', first_charge_date: '2026-01-08' });
    await a.core.invoke('cancel_subscription', owner, {
      id: ending.output.id,
      effective_date: '2026-03-31',
    });
  });
  afterEach(async () => {
    await cores.close();
    await shared.close();
  });

  it('orders by the next charge each item shows (a trial by its end), ties by id, ascending and descending, page after page', async () => {
    for (const actor of [owner, bea]) {
      const all = (await list(a.core, actor, { limit: 500 })).items;
      for (const order of ['asc', 'desc'] as const)
        expect(await paged(actor, { sort: 'next_charge_date', order }, 2)).toEqual(
          byShownNextCharge(all, order),
        );
    }
    const first = (await list(a.core, owner, { sort: 'next_charge_date', limit: 3 })).items;
    expect(first.map((s) => [s.name, s.next_charge_date])).toEqual([
      ['Gym', '2026-03-03'],
      ['Yearly', '2026-03-05'],
      ['Ending', '2026-03-08'],
    ]);
  });

  it('keeps what the same filters keep by name: status as it is today, category, member, tag, due dates', async () => {
    const filters: Input[] = [
      { status: 'trial' },
      { status: ['active', 'paused'] },
      { status: 'cancelled' },
      { category_id: categoryId },
      { member_id: bea.memberId },
      { tag_id: tagId },
      { due_from: '2026-03-09', due_to: '2026-03-20' },
      { due_to: '2026-03-08' },
      { status: 'active', category_id: categoryId, due_from: '2026-03-10' },
    ];
    for (const actor of [owner, bea, { ...owner, audience: 'shared' as const }])
      for (const filter of filters) {
        const byName = await list(a.core, actor, { ...filter, limit: 500 });
        const byNext = await list(a.core, actor, {
          ...filter,
          sort: 'next_charge_date',
          limit: 500,
        });
        expect(byNext.total, JSON.stringify(filter)).toBe(byName.total);
        expect(byNext.items.map((s) => s.id)).toEqual(byShownNextCharge(byName.items, 'asc'));
      }
    const trials = await list(a.core, owner, { status: 'trial', sort: 'next_charge_date' });
    expect(trials.items.map((s) => s.name)).toEqual(['Trial']);
    // With free text (matched in notes too, outside the read model) the trial's end counts as well.
    for (const sort of ['name', 'next_charge_date'])
      expect(
        (await list(a.core, owner, { due_from: '2026-03-15', text: 'i', sort })).items.map(
          (s) => s.name,
        ),
      ).toEqual(['Trial']);
  });

  it('never lists another member’s private subscription, not even filtered by that member, and none to a shared audience', async () => {
    const names = async (actor: Actor, input: Input = {}) =>
      (await list(a.core, actor, { sort: 'next_charge_date', limit: 500, ...input })).items.map(
        (s) => s.name,
      );
    expect(await names(bea)).toContain('Bea diary');
    expect(await names(owner)).not.toContain('Bea diary');
    expect(await names(owner, { member_id: bea.memberId })).toEqual(['Bea public']);
    expect(await names({ ...bea, audience: 'shared' })).not.toContain('Bea diary');
    expect((await list(a.core, owner, { sort: 'next_charge_date' })).total).toBe(8);
    expect((await list(a.core, bea, { sort: 'next_charge_date' })).total).toBe(9);
  });

  it('sees on its next call what another process changed (SQLite data_version, PostgreSQL LISTEN/NOTIFY)', async () => {
    const before = await list(a.core, owner, { sort: 'next_charge_date', limit: 1 });
    expect(before.items[0]?.name).toBe('Gym');
    let heard = shared.dialect === 'postgres' ? changeHeard(a.bus, householdId) : null;
    await b.core.invoke('create_subscription', owner, {
      name: 'Tomorrow',
      amount: '1.00',
      first_charge_date: '2026-02-02',
    });
    await heard; // PostgreSQL: the event is what tells A; SQLite needs no wait at all
    const after = await list(a.core, owner, { sort: 'next_charge_date', limit: 2 });
    expect(after.items.map((s) => s.name)).toEqual(['Tomorrow', 'Gym']);
    expect(after.total).toBe(before.total + 1);
    heard = shared.dialect === 'postgres' ? changeHeard(a.bus, householdId) : null;
    const gym = after.items[1]?.id;
    await b.core.invoke('update_subscription', owner, { id: gym, first_charge_date: '2026-01-31' });
    await heard;
    const moved = await list(a.core, owner, { sort: 'next_charge_date', limit: 2 });
    expect(moved.items.map((s) => [s.name, s.next_charge_date])).toEqual([
      ['Tomorrow', '2026-03-02'],
      ['Yearly', '2026-03-05'],
    ]);
    // A subscription made private by its owner in the other process leaves Ana's list at once.
    heard = shared.dialect === 'postgres' ? changeHeard(a.bus, householdId) : null;
    const beaPublic = (await list(b.core, bea, { member_id: bea.memberId })).items.find(
      (s) => s.name === 'Bea public',
    );
    await b.core.invoke('update_subscription', bea, { id: beaPublic?.id, private: true });
    await heard;
    const names = (await list(a.core, owner, { sort: 'next_charge_date', limit: 500 })).items.map(
      (s) => s.name,
    );
    expect(names).not.toContain('Bea public');
  });

  it('reads no subscription row while nothing changes, and only a page’s views it has not read before', async () => {
    /** The statements on subscriptions that `run` sends, through either connection. */
    async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
      const statements: string[] = [];
      const listener = (q: { sql: string }) => {
        if (/from [`"]subscriptions[`"]/.test(q.sql)) statements.push(q.sql);
      };
      const connections = [a.db.knex, ...(a.db.reader ? [a.db.reader] : [])];
      for (const k of connections) k.on('query', listener);
      try {
        await run();
      } finally {
        for (const k of connections) k.off('query', listener);
      }
      return statements;
    }
    const page = (offset: number) =>
      list(a.core, owner, { sort: 'next_charge_date', limit: 3, offset });
    await page(0);
    // PostgreSQL without a listening bus caches nothing; here both processes listen.
    expect(await statementsOf(() => page(0))).toEqual([]);
    const next = await statementsOf(() => page(3));
    expect(next).toHaveLength(1);
    expect(next[0]).toMatch(/[`"]subscriptions[`"]\.[`"]id[`"] in \(/);
    expect(await statementsOf(() => page(3))).toEqual([]);
  });
});
