import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Core } from '../../../../core/kernel/core.ts';
import { OpError } from '../../../../core/errors/index.ts';
import { catalog } from '../../../../core/ops/catalog.ts';
import { dumpDatabase } from '../../../helpers/dump.ts';
import { memberActor, newcomerActor } from '../../../../core/kernel/actor.ts';
import {
  openSharedTestDatabase,
  type SharedTestDatabase,
} from '../../../helpers/sharedDatabase.ts';
import {
  createTestHousehold,
  TEST_DIALECT,
  TEST_NOW,
  type TestHousehold,
} from '../../../helpers/testCore.ts';
import { FOUR_MONTHS } from './statement.ts';

async function failure(promise: Promise<unknown>): Promise<OpError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof OpError)) throw new Error(`expected an OpError, got ${String(error)}`);
  return error;
}

const IMPORT = {
  file_name: 'card.csv',
  content: FOUR_MONTHS,
  candidates: ['netflix:month:1', 'iron-gym:month:1'],
};

describe(`import_candidates (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('creates the chosen candidates as subscriptions, with the price rises seen as price changes', async () => {
    const { output } = await h.core.invoke('import_candidates', h.owner, IMPORT);
    expect(output).toMatchObject({ created: 2, price_changed: 0, already_tracked: 0 });
    const netflixId = output.items.find((i) => i.name === 'Netflix')?.subscription_id ?? '';
    const netflix = await h.core.invoke('get_subscription', h.owner, { id: netflixId });
    expect(netflix.output).toMatchObject({
      name: 'Netflix',
      amount: '17.99',
      currency: 'EUR',
      cycle: { unit: 'month', every: 1 },
      first_charge_date: '2025-11-03',
      status: 'active',
      member_id: h.ownerId,
    });
    const changes = await h.core.invoke('list_price_changes', h.owner, {
      subscription_id: netflixId,
    });
    expect(JSON.stringify(changes.output)).toContain('2026-01-05');
    const list = await h.core.invoke('list_subscriptions', h.owner, {});
    expect(list.output.items.map((s) => s.name).sort()).toEqual(['Iron Gym', 'Netflix']);
  });

  it('gives a new subscription the name the person saw (names), and leaves a tracked one its own', async () => {
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Spotify',
      amount: '10.99',
      first_charge_date: '2024-01-05',
    });
    const { output } = await h.core.invoke('import_candidates', h.owner, {
      ...IMPORT,
      candidates: ['netflix:month:1', 'iron-gym:month:1', 'spotify:month:1'],
      names: { 'netflix:month:1': 'Netflix Premium', 'spotify:month:1': 'Spotify Family' },
    });
    expect(output.items.map((i) => [i.candidate, i.name, i.result])).toEqual([
      ['netflix:month:1', 'Netflix Premium', 'created'],
      ['iron-gym:month:1', 'Iron Gym', 'created'],
      ['spotify:month:1', 'Spotify', 'already_tracked'],
    ]);
    const list = await h.core.invoke('list_subscriptions', h.owner, {});
    expect(list.output.items.map((s) => s.name).sort()).toEqual([
      'Iron Gym',
      'Netflix Premium',
      'Spotify',
    ]);
  });

  it('refuses a name of several lines, or an empty one, and writes nothing', async () => {
    const before = await dumpDatabase(h.db);
    for (const name of ['Netflix\nImported 40 subscriptions', '  '])
      expect(
        (
          await failure(
            h.core.invoke('import_candidates', h.owner, {
              ...IMPORT,
              names: { 'netflix:month:1': name },
            }),
          )
        ).code,
      ).toBe('invalid_input');
    expect(await dumpDatabase(h.db)).toBe(before);
  });

  it('records a price change on a tracked subscription charged at another price, and leaves one at the same price', async () => {
    const tracked = await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
      currency: 'EUR',
      cycle: { unit: 'month' },
      first_charge_date: '2024-05-03',
    });
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Spotify',
      amount: '10.99',
      currency: 'EUR',
      cycle: { unit: 'month' },
      first_charge_date: '2024-01-05',
    });
    const { output } = await h.core.invoke('import_candidates', h.owner, {
      ...IMPORT,
      candidates: ['netflix:month:1', 'spotify:month:1'],
    });
    expect(output).toMatchObject({ created: 0, price_changed: 1, already_tracked: 1 });
    const after = await h.core.invoke('get_subscription', h.owner, { id: tracked.output.id });
    expect(after.output.amount).toBe('17.99');
  });

  it('previews with a dry run and writes nothing', async () => {
    const before = await dumpDatabase(h.db);
    const preview = await h.core.invoke('import_candidates', h.owner, IMPORT, { dryRun: true });
    expect(preview.output.created).toBe(2);
    // Four charges each of Netflix and the gym, recorded paid as the statement shows them.
    expect(preview.output.past_charges).toBe(8);
    expect(preview.changes.map((c) => c.table).sort()).toEqual([
      ...Array<string>(8).fill('charges'),
      'price_changes',
      'statement_imports',
      'subscriptions',
      'subscriptions',
    ]);
    expect(await dumpDatabase(h.db)).toBe(before);
  });

  it('is undone as one entry, which forgets the statement too', async () => {
    const before = await dumpDatabase(h.db, { except: ['audit_entries'] });
    const { auditId } = await h.core.invoke('import_candidates', h.owner, IMPORT);
    await h.core.invoke('undo', h.owner, { ids: [auditId ?? ''] });
    expect(await dumpDatabase(h.db, { except: ['audit_entries'] })).toBe(before);
    const again = await h.core.invoke('import_candidates', h.owner, IMPORT);
    expect(again.output.created).toBe(2);
  });

  it('says a statement was imported before, also when read again, and imports nothing twice', async () => {
    await h.core.invoke('import_candidates', h.owner, IMPORT);
    const read = await h.core.invoke('read_statement', h.owner, {
      file_name: 'card.csv',
      content: FOUR_MONTHS,
    });
    expect(read.output.imported_before).toBe('2026-03-02T10:00:00.000Z');
    const before = await dumpDatabase(h.db);
    const error = await failure(
      h.core.invoke('import_candidates', h.owner, { ...IMPORT, candidates: ['spotify:month:1'] }),
    );
    expect(error.code).toBe('conflict');
    expect(error.render('en')).toBe(
      'This statement was already imported on Mon, 2 Mar 2026. Nothing was imported again.',
    );
    expect(await dumpDatabase(h.db)).toBe(before);
  });

  it("dates the earlier import by the household's day, where its people were", async () => {
    await h.core.invoke('update_household', h.owner, { time_zone: 'Pacific/Kiritimati' });
    await h.core.invoke('import_candidates', h.owner, IMPORT);
    // 10:00 UTC on 2 March is already 3 March in Kiritimati (UTC+14).
    const error = await failure(
      h.core.invoke('import_candidates', h.owner, { ...IMPORT, candidates: ['spotify:month:1'] }),
    );
    expect(error.render('en')).toBe(
      'This statement was already imported on Tue, 3 Mar 2026. Nothing was imported again.',
    );
  });

  it('imports a statement once when two imports of it run at the same time', async () => {
    const results = await Promise.allSettled([
      h.core.invoke('import_candidates', h.owner, IMPORT),
      h.core.invoke('import_candidates', h.owner, IMPORT),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((r) => r.status === 'rejected');
    expect(
      rejected?.status === 'rejected' && rejected.reason instanceof OpError && rejected.reason.code,
    ).toBe('conflict');
    const list = await h.core.invoke('list_subscriptions', h.owner, {});
    expect(list.output.items).toHaveLength(2);
  });

  it('is refused by a second Core over the same database', async () => {
    await h.core.invoke('import_candidates', h.owner, IMPORT);
    const other = new Core({
      db: h.db,
      catalog,
      clock: () => new Date(h.clock.now),
      newId: h.ids.next,
    });
    const error = await failure(other.invoke('import_candidates', h.owner, IMPORT));
    expect(error.code).toBe('conflict');
  });

  it('writes nothing when it fails part-way', async () => {
    const before = await dumpDatabase(h.db);
    const boom = new Error('the disk filled up');
    const error = await h.core
      .invoke('import_candidates', h.owner, IMPORT, {
        beforeCommit: async () => {
          throw boom;
        },
      })
      .catch((e: unknown) => e);
    expect(error).toBe(boom);
    expect(await dumpDatabase(h.db)).toBe(before);
    const unknown = await failure(
      h.core.invoke('import_candidates', h.owner, {
        ...IMPORT,
        candidates: ['netflix:month:1', 'nope:month:1'],
      }),
    );
    expect(unknown.code).toBe('not_found');
    expect(await dumpDatabase(h.db)).toBe(before);
  });

  it('records the charges the statement shows as paid, on their series dates, with the amounts charged', async () => {
    const { output } = await h.core.invoke('import_candidates', h.owner, IMPORT);
    expect(output.past_charges).toBe(8);
    const paid = await h.core.invoke('list_charges', h.owner, {
      from: '2025-11-01',
      to: '2026-03-31',
      status: ['paid'],
    });
    expect(
      paid.output.items.map((c) => `${c.subscription_name} ${c.due_date} ${c.amount}`),
    ).toEqual([
      'Netflix 2025-11-03 15.99',
      'Iron Gym 2025-11-15 30.00',
      'Netflix 2025-12-03 15.99',
      'Iron Gym 2025-12-15 30.00',
      // Charged on the 5th and the 16th: the charges of the 3rd and the 15th.
      'Netflix 2026-01-03 17.99',
      'Iron Gym 2026-01-15 30.00',
      'Netflix 2026-02-03 17.99',
      'Iron Gym 2026-02-15 30.00',
    ]);
    const next = await h.core.invoke('list_charges', h.owner, {
      from: '2026-03-01',
      to: '2026-03-31',
    });
    expect(
      next.output.items.map((c) => `${c.subscription_name} ${c.due_date} ${c.status}`),
    ).toEqual(['Netflix 2026-03-03 expected', 'Iron Gym 2026-03-15 expected']);
  });

  it('leaves a charge already recorded on a tracked subscription as it was', async () => {
    const spotify = await h.core.invoke('create_subscription', h.owner, {
      name: 'Spotify',
      amount: '10.99',
      cycle: { unit: 'month' },
      first_charge_date: '2024-01-05',
    });
    await h.core.invoke('skip_charge', h.owner, {
      subscription_id: spotify.output.id,
      due_date: '2026-01-05',
    });
    const { output } = await h.core.invoke('import_candidates', h.owner, {
      ...IMPORT,
      candidates: ['spotify:month:1'],
    });
    expect(output).toMatchObject({ already_tracked: 1, past_charges: 3 });
    const charges = await h.core.invoke('list_charges', h.owner, {
      from: '2025-11-01',
      to: '2026-02-28',
      subscription_id: spotify.output.id,
    });
    expect(charges.output.items.map((c) => `${c.due_date} ${c.status}`)).toEqual([
      '2025-11-05 paid',
      '2025-12-05 paid',
      '2026-01-05 skipped',
      '2026-02-05 paid',
    ]);
  });
});

describe(`import_candidates and mark_charge_paid from two Cores at once (${TEST_DIALECT})`, () => {
  let shared: SharedTestDatabase;
  afterEach(async () => shared.close());

  it('records a charge of a tracked subscription once', async () => {
    shared = await openSharedTestDatabase();
    const a = new Core({ db: shared.open(), catalog, clock: () => TEST_NOW });
    const b = new Core({ db: shared.open(), catalog, clock: () => TEST_NOW });
    const created = await a.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      owner_name: 'Ana',
    });
    const ana = memberActor(
      {
        ...created.output.member,
        household_id: created.output.household.id,
        role: 'owner',
        language: 'en',
      },
      'cli',
    );
    const spotify = await a.invoke('create_subscription', ana, {
      name: 'Spotify',
      amount: '10.99',
      cycle: { unit: 'month' },
      first_charge_date: '2024-01-05',
    });
    const results = await Promise.allSettled([
      a.invoke('import_candidates', ana, { ...IMPORT, candidates: ['spotify:month:1'] }),
      b.invoke('mark_charge_paid', ana, {
        subscription_id: spotify.output.id,
        due_date: '2026-01-05',
        amount: '11.50',
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    const rows = await a.db
      .knex('charges')
      .where({ subscription_id: spotify.output.id })
      .orderBy('due_date')
      .select('due_date');
    expect(rows.map((r: { due_date: string }) => r.due_date)).toEqual([
      '2025-11-05',
      '2025-12-05',
      '2026-01-05',
      '2026-02-05',
    ]);
  });

  it('imports a statement once when two Cores, each with its own connections, import it at the same moment', async () => {
    shared = await openSharedTestDatabase();
    const a = new Core({ db: shared.open(), catalog, clock: () => TEST_NOW });
    const b = new Core({ db: shared.open(), catalog, clock: () => TEST_NOW });
    const created = await a.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      owner_name: 'Ana',
    });
    const ana = memberActor(
      {
        ...created.output.member,
        household_id: created.output.household.id,
        role: 'owner',
        language: 'en',
      },
      'cli',
    );
    const results = await Promise.allSettled([
      a.invoke('import_candidates', ana, IMPORT),
      b.invoke('import_candidates', ana, IMPORT),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((r) => r.status === 'rejected');
    expect(rejected?.status === 'rejected' && rejected.reason instanceof OpError).toBe(true);
    expect(rejected?.status === 'rejected' && (rejected.reason as OpError).key).toBe(
      'errors.statements.imported_before',
    );
    const knex = a.db.knex;
    expect(await knex('statement_imports')).toHaveLength(1);
    expect(
      (await knex('subscriptions').select('name')).map((r: { name: string }) => r.name).sort(),
    ).toEqual(['Iron Gym', 'Netflix']);
    expect(await knex('audit_entries').where({ op: 'import_candidates' })).toHaveLength(1);
  });
});
