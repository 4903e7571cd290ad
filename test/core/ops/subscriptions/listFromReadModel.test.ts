import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type Actor, memberActor, newcomerActor } from '../../../../core/kernel/actor.ts';
import { Core } from '../../../../core/kernel/core.ts';
import type { EventBus } from '../../../../core/kernel/events.ts';
import { catalog } from '../../../../core/ops/catalog.ts';
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
import { TEST_NOW } from '../../../helpers/testCore.ts';

type AppCore = Core<typeof catalog>;
type Input = Record<string, unknown>;

/**
 * list_subscriptions takes the page's ids for every sort but creation order from the household's
 * read model (core/ops/subscriptions/_lib/listOrder.ts) and the page's views from it too
 * (`_lib/view.ts`, as get_subscription does): the same items, totals, ties and pages as the SQL
 * path (which free text still takes: every subscription here has the vendor "Acme", so the text
 * "acme" matches them all and reads them from the database), and another process's change seen on
 * the next call (SQLite data_version, PostgreSQL LISTEN/NOTIFY).
 */
describe('list_subscriptions and get_subscription from the read model', () => {
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
  let methodId = '';
  let tagId = '';
  const ids = new Map<string, string>();

  const list = async (core: AppCore, actor: Actor, input: Input) =>
    (await core.invoke('list_subscriptions', actor, input)).output;
  /** Every page of `size` in turn, concatenated, with the total each page said. */
  async function paged(actor: Actor, input: Input, size: number) {
    const items: string[] = [];
    const totals = new Set<number>();
    for (let offset = 0; ; offset += size) {
      const page = await list(a.core, actor, { ...input, limit: size, offset });
      items.push(...page.items.map((s) => s.id));
      totals.add(page.total);
      if (offset + size >= page.total) return { items, totals: [...totals] };
    }
  }
  /** PostgreSQL: a promise of A hearing B's next change; SQLite needs no wait at all. */
  const heard = () => (shared.dialect === 'postgres' ? changeHeard(a.bus, householdId) : null);

  beforeEach(async () => {
    shared = await openSharedTestDatabase();
    a = await processCore();
    b = await processCore();
    const created = await a.core.invoke('create_household', newcomerActor('cli', 'es'), {
      name: 'Casa',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      owner_name: 'Ana',
      language: 'es',
    });
    householdId = created.output.household.id;
    owner = memberActor({ ...created.output.member, household_id: householdId }, 'cli');
    const invite = await a.core.invoke('create_invite', owner, {});
    const joined = await a.core.invoke('join_household', newcomerActor('cli', 'en'), {
      code: invite.output.code,
      name: 'Bea',
    });
    bea = memberActor({ ...joined.output.member, household_id: householdId }, 'cli');
    // Today is 2026-03-02 (TEST_NOW). Names equal but for case or accents, equal prices and
    // equal dates on purpose: ties go by id.
    const add = async (actor: Actor, input: Input) => {
      const made = await a.core.invoke('create_subscription', actor, {
        amount: '5.00',
        vendor: 'Acme',
        ...input,
      });
      ids.set(String(input.name), made.output.id);
      return made.output;
    };
    const netflix = await add(owner, {
      name: 'Netflix',
      first_charge_date: '2026-01-10',
      category: 'Vídeo',
      payment_method: 'Visa',
    });
    categoryId = netflix.category?.id ?? '';
    methodId = netflix.payment_method?.id ?? '';
    await add(owner, { name: 'netflix', first_charge_date: '2026-01-10', tags: ['Familia'] });
    tagId = (await list(a.core, owner, { text: 'acme' })).items.find((s) => s.name === 'netflix')
      ?.tags[0]?.id as string;
    await add(owner, { name: 'Ñandú TV', amount: '60.00', cycle: { unit: 'year' } });
    await add(owner, { name: 'Nube', amount: '5.00', first_charge_date: '2026-02-20' });
    await add(owner, { name: 'Apple 10', amount: '12.00', first_charge_date: '2026-01-03' });
    await add(owner, { name: 'Apple 9', amount: '1.00', first_charge_date: '2026-01-03' });
    await add(owner, {
      name: 'Prueba',
      first_charge_date: '2026-01-04',
      status: 'trial',
      trial_ends_on: '2026-03-20',
      payment_method_id: methodId,
    });
    await add(bea, {
      name: 'Bea pública',
      first_charge_date: '2026-01-10',
      category_id: categoryId,
    });
    await add(bea, { name: 'Bea privada', first_charge_date: '2026-01-03', private: true });
    const paused = await add(owner, { name: 'Pausa', first_charge_date: '2026-01-07' });
    await a.core.invoke('pause_subscription', owner, { id: paused.id });
    const ending = await add(owner, { name: 'Fin', first_charge_date: '2026-01-08' });
    await a.core.invoke('cancel_subscription', owner, {
      id: ending.id,
      effective_date: '2026-03-31',
    });
    // A price rise still to come: until then the list orders and shows the old price.
    await a.core.invoke('update_subscription', owner, {
      id: ids.get('Nube'),
      amount: '50.00',
      price_effective_date: '2026-04-01',
    });
  });
  afterEach(async () => {
    await cores.close();
    await shared.close();
  });

  it('lists what the SQL path lists for every sort, order, filter and reader: items, totals, ties and pages', async () => {
    const filters: Input[] = [
      {},
      { status: 'trial' },
      { status: ['active', 'paused'] },
      { status: 'cancelled' },
      { category_id: categoryId },
      { payment_method_id: methodId },
      { member_id: bea.memberId },
      { tag_id: tagId },
      { due_from: '2026-03-09', due_to: '2026-03-20' },
      { status: 'active', category_id: categoryId, due_from: '2026-03-10' },
    ];
    const readers = [owner, bea, { ...owner, audience: 'shared' as const }];
    for (const actor of readers)
      for (const sort of ['name', 'monthly_cost', 'next_charge_date'])
        for (const order of ['asc', 'desc'])
          for (const filter of filters) {
            const input = { ...filter, sort, order };
            const label = JSON.stringify({ actor: actor.memberId, ...input });
            const viaSql = await list(a.core, actor, { ...input, text: 'acme', limit: 500 });
            const viaModel = await list(a.core, actor, { ...input, limit: 500 });
            expect(viaModel, label).toEqual(viaSql);
            const pages = await paged(actor, input, 2);
            expect(pages.items, label).toEqual(viaSql.items.map((s) => s.id));
            expect(pages.totals, label).toEqual([viaSql.total]);
          }
  });

  it('orders names as the household’s language reads them, ties by id, and prices as of today', async () => {
    const byName = await list(a.core, owner, { limit: 500 });
    const names = byName.items.map((s) => s.name);
    expect(names.slice(0, 2)).toEqual(['Apple 9', 'Apple 10']);
    const netflixes = byName.items.filter((s) => s.name.toLowerCase() === 'netflix');
    expect(netflixes.map((s) => s.id)).toEqual(netflixes.map((s) => s.id).sort());
    expect(names.indexOf('Ñandú TV')).toBe(names.lastIndexOf('Nube') + 1);
    const byCost = await list(a.core, owner, { sort: 'monthly_cost', order: 'desc', limit: 1 });
    expect(byCost.items.map((s) => [s.name, s.amount])).toEqual([['Apple 10', '12.00']]);
    expect(
      (await a.core.invoke('get_subscription', owner, { id: ids.get('Nube') })).output.amount,
    ).toBe('5.00');
  });

  it('never shows another member’s private subscription, by list or by id, nor any to a shared audience', async () => {
    const privateId = ids.get('Bea privada');
    const listed = async (actor: Actor) =>
      (await list(a.core, actor, { limit: 500 })).items.map((s) => s.id);
    // Bea reads it first, so its view is kept: it still stays hers.
    expect(await listed(bea)).toContain(privateId);
    expect((await a.core.invoke('get_subscription', bea, { id: privateId })).output.name).toBe(
      'Bea privada',
    );
    expect(await listed(owner)).not.toContain(privateId);
    expect(await listed({ ...bea, audience: 'shared' })).not.toContain(privateId);
    for (const actor of [owner, { ...bea, audience: 'shared' as const }])
      await expect(
        a.core.invoke('get_subscription', actor, { id: privateId }),
      ).rejects.toMatchObject({ code: 'not_found' });
    expect(
      (await list(a.core, owner, { member_id: bea.memberId })).items.map((s) => s.name),
    ).toEqual(['Bea pública']);
  });

  it('gives each caller a copy it may change: a changed result never reaches the next caller', async () => {
    // As in production: results not parsed again on the way out (a parse would copy them anyway).
    const core = new Core({ db: a.db, catalog, clock: () => TEST_NOW, validateOutputs: false });
    const id = ids.get('netflix');
    const first = (await core.invoke('get_subscription', owner, { id })).output;
    first.name = 'changed';
    first.tags.push({ id: 'tag_x', name: 'x' });
    const page = (await core.invoke('list_subscriptions', owner, { limit: 500 })).output.items;
    const again = page.find((s) => s.id === id);
    expect(again?.name).toBe('netflix');
    expect(again?.tags.map((t) => t.name)).toEqual(['Familia']);
    if (again) again.name = 'changed too';
    expect((await core.invoke('get_subscription', owner, { id })).output.name).toBe('netflix');
  });

  it('sees on its next call what another process changed: a rename, a tag, a share, privacy, a new subscription', async () => {
    const netflixId = ids.get('Netflix') ?? '';
    const get = async (core: AppCore, actor: Actor, id: string) =>
      (await core.invoke('get_subscription', actor, { id })).output;
    // Both read once, so both keep the views and the orders.
    await list(a.core, owner, { limit: 500 });
    await get(a.core, owner, netflixId);
    let wait = heard();
    await b.core.invoke('update_subscription', owner, { id: netflixId, name: 'Aaa Netflix' });
    await wait;
    expect((await get(a.core, owner, netflixId)).name).toBe('Aaa Netflix');
    expect((await list(a.core, owner, { limit: 1 })).items[0]?.name).toBe('Aaa Netflix');

    wait = heard();
    await b.core.invoke('rename_tag', owner, { id: tagId, name: 'Casa' });
    await wait;
    const tagged = await list(a.core, owner, { tag_id: tagId });
    expect(tagged.items.map((s) => s.tags.map((t) => t.name))).toEqual([['Casa']]);

    wait = heard();
    await b.core.invoke('update_subscription', owner, {
      id: netflixId,
      shares: [
        { member_id: owner.memberId, percent: '50' },
        { member_id: bea.memberId, percent: '50' },
      ],
    });
    await wait;
    expect((await get(a.core, owner, netflixId)).shares).toHaveLength(2);

    const beaPublic = ids.get('Bea pública') ?? '';
    await get(a.core, owner, beaPublic);
    wait = heard();
    await b.core.invoke('update_subscription', bea, { id: beaPublic, private: true });
    await wait;
    await expect(get(a.core, owner, beaPublic)).rejects.toMatchObject({ code: 'not_found' });
    expect((await list(a.core, owner, { limit: 500 })).items.map((s) => s.id)).not.toContain(
      beaPublic,
    );

    const before = (await list(a.core, owner, { sort: 'monthly_cost', order: 'desc' })).total;
    wait = heard();
    await b.core.invoke('create_subscription', owner, { name: 'Zeta', amount: '99.00' });
    await wait;
    const after = await list(a.core, owner, { sort: 'monthly_cost', order: 'desc', limit: 1 });
    expect([after.total, after.items[0]?.name]).toEqual([before + 1, 'Zeta']);
  });

  it('keeps nothing of a write that failed or was only previewed, and sees a write that raced a read', async () => {
    const netflixId = ids.get('Netflix') ?? '';
    const name = async () =>
      (await a.core.invoke('get_subscription', owner, { id: netflixId })).output.name;
    expect(await name()).toBe('Netflix');
    // A dry run reads and writes inside its own transaction, then rolls back.
    const preview = await a.core.invoke(
      'update_subscription',
      owner,
      { id: netflixId, name: 'Preview' },
      { dryRun: true },
    );
    expect(preview.output.name).toBe('Preview');
    expect(await name()).toBe('Netflix');
    // Refused after its changes were made (they no longer match the preview): rolled back whole.
    await expect(
      a.core.invoke(
        'update_subscription',
        owner,
        { id: netflixId, name: 'Failed' },
        { expectChanges: 'not-this-preview' },
      ),
    ).rejects.toMatchObject({ code: 'conflict' });
    expect(await name()).toBe('Netflix');
    // A read racing another process's write: whatever it saw, the next read sees the write.
    const wait = heard();
    const [, , written] = await Promise.all([
      name(),
      list(a.core, owner, { limit: 500 }),
      b.core.invoke('update_subscription', owner, { id: netflixId, name: 'Raced' }),
    ]);
    expect(written.output.name).toBe('Raced');
    await wait;
    expect(await name()).toBe('Raced');
    expect((await list(a.core, owner, { limit: 500 })).items.map((s) => s.name)).toContain('Raced');
  });
});
