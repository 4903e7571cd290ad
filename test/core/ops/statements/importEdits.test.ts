import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { OpError } from '../../../../core/errors/index.ts';
import { memberActor, newcomerActor } from '../../../../core/kernel/actor.ts';
import { Core } from '../../../../core/kernel/core.ts';
import { catalog } from '../../../../core/ops/catalog.ts';
import { importCandidates } from '../../../../core/ops/statements/importCandidates.ts';
import { previewCard } from '../../../../core/pending/card.ts';
import { dumpDatabase } from '../../../helpers/dump.ts';
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

const STATEMENT = { file_name: 'card.csv', content: FOUR_MONTHS };

/** Netflix renamed and re-priced, yearly, in a new category; the gym as the statement read it. */
const EDITED = {
  ...STATEMENT,
  candidates: [
    {
      id: 'netflix:month:1',
      name: 'Netflix Premium',
      amount: '19.99',
      cycle: { unit: 'month' as const, every: 1 },
      category: 'Streaming',
    },
    'iron-gym:month:1',
  ],
};

describe(`import_candidates with edits (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('creates a candidate with the fields the person corrected, and the others as read', async () => {
    const { output } = await h.core.invoke('import_candidates', h.owner, EDITED);
    expect(output).toMatchObject({ created: 2, price_changed: 0 });
    const netflix = output.items.find((i) => i.candidate === 'netflix:month:1');
    expect(netflix?.name).toBe('Netflix Premium');
    const sub = await h.core.invoke('get_subscription', h.owner, {
      id: netflix?.subscription_id ?? '',
    });
    expect(sub.output).toMatchObject({
      name: 'Netflix Premium',
      amount: '19.99',
      currency: 'EUR',
      cycle: { unit: 'month', every: 1 },
      first_charge_date: '2025-11-03',
      category: { name: 'Streaming' },
    });
    // The statement's rise (15.99 → 17.99) ended at its price, not the corrected one: left out.
    const changes = await h.core.invoke('list_price_changes', h.owner, {
      subscription_id: sub.output.id,
    });
    expect(JSON.stringify(changes.output)).not.toContain('2026-01-05');
    // The charges the statement shows are still recorded, at the amounts it charged.
    const charges = await h.db
      .knex('charges')
      .where({ subscription_id: sub.output.id })
      .orderBy('due_date')
      .select('due_date', 'amount_minor');
    expect(
      charges.map((c: { due_date: string; amount_minor: number }) => [
        c.due_date,
        Number(c.amount_minor),
      ]),
    ).toEqual([
      ['2025-11-03', 1599],
      ['2025-12-03', 1599],
      ['2026-01-03', 1799],
      ['2026-02-03', 1799],
    ]);
    const gym = output.items.find((i) => i.candidate === 'iron-gym:month:1');
    const gymSub = await h.core.invoke('get_subscription', h.owner, {
      id: gym?.subscription_id ?? '',
    });
    expect(gymSub.output).toMatchObject({ name: 'Iron Gym', amount: '30.00', category: null });
  });

  it('takes a cycle, a first charge date, a currency and an existing category by name', async () => {
    const cat = await h.core.invoke('create_category', h.owner, { name: 'Salud' });
    const { output } = await h.core.invoke('import_candidates', h.owner, {
      ...STATEMENT,
      candidates: [
        {
          id: 'iron-gym:month:1',
          cycle: { unit: 'week', every: 4 },
          first_charge_date: '2025-11-15',
          currency: 'gbp',
          category: 'salud',
        },
      ],
    });
    const sub = await h.core.invoke('get_subscription', h.owner, {
      id: output.items[0]?.subscription_id ?? '',
    });
    expect(sub.output).toMatchObject({
      amount: '30.00',
      currency: 'GBP',
      cycle: { unit: 'week', every: 4 },
      first_charge_date: '2025-11-15',
      category: { id: cat.output.id },
    });
  });

  it('shows the corrected values on the card written from its dry run', async () => {
    const before = await dumpDatabase(h.db);
    const preview = await h.core.invoke('import_candidates', h.owner, EDITED, { dryRun: true });
    expect(await dumpDatabase(h.db)).toBe(before);
    const card = await previewCard(
      h.db.knex,
      importCandidates,
      preview.output,
      preview.changes,
      'en',
    );
    const text = card.lines.join('\n');
    expect(text).toContain('Netflix Premium');
    expect(text).toContain('19.99');
    expect(text).not.toMatch(/Netflix\b(?! Premium)/);
  });

  it('is undone as one entry, the category it created too', async () => {
    const before = await dumpDatabase(h.db, { except: ['audit_entries'] });
    const { auditId } = await h.core.invoke('import_candidates', h.owner, EDITED);
    await h.core.invoke('undo', h.owner, { ids: [auditId ?? ''] });
    expect(await dumpDatabase(h.db, { except: ['audit_entries'] })).toBe(before);
  });

  it('refuses a bad field at its place, in the reader’s language, and writes nothing', async () => {
    const before = await dumpDatabase(h.db);
    const bad = await failure(
      h.core.invoke('import_candidates', h.owner, {
        ...STATEMENT,
        candidates: ['iron-gym:month:1', { id: 'netflix:month:1', name: ' ', amount: 'cheap' }],
      }),
    );
    expect(bad.code).toBe('invalid_input');
    expect(bad.issues.map((i) => i.path).sort()).toEqual([
      'candidates.1.amount',
      'candidates.1.name',
    ]);
    const es = await failure(
      h.core.invoke(
        'import_candidates',
        { ...h.owner, locale: 'es' },
        {
          ...STATEMENT,
          candidates: [{ id: 'netflix:month:1', amount: '9.999' }],
        },
      ),
    );
    expect(es.issues).toEqual([
      { path: 'candidates.0.amount', message: expect.stringMatching(/decimal/i) as string },
    ]);
    expect(es.issues[0]?.message).toContain('EUR');
    // The same sentence create_subscription gives for the same amount.
    const direct = await failure(
      h.core.invoke(
        'create_subscription',
        { ...h.owner, locale: 'es' },
        {
          name: 'X',
          amount: '9.999',
        },
      ),
    );
    expect(es.issues[0]?.message).toBe(direct.issues[0]?.message);
    const currency = await failure(
      h.core.invoke('import_candidates', h.owner, {
        ...STATEMENT,
        candidates: [{ id: 'netflix:month:1', currency: 'ZZZ', cycle: { unit: 'fortnight' } }],
      }),
    );
    expect(currency.issues.map((i) => i.path).sort()).toEqual([
      'candidates.0.currency',
      'candidates.0.cycle.unit',
    ]);
    expect(await dumpDatabase(h.db)).toBe(before);
  });

  it('refuses an edit of a candidate already tracked, or one listed twice with edits', async () => {
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Spotify',
      amount: '10.99',
      first_charge_date: '2024-01-05',
    });
    const before = await dumpDatabase(h.db);
    const tracked = await failure(
      h.core.invoke('import_candidates', h.owner, {
        ...STATEMENT,
        candidates: ['netflix:month:1', { id: 'spotify:month:1', name: 'Spotify Duo' }],
      }),
    );
    expect(tracked.issues).toEqual([
      {
        path: 'candidates.1',
        message:
          'This one is already tracked, so importing it only records its price and charges: edit the subscription from its card instead. Nothing was imported.',
      },
    ]);
    const twice = await failure(
      h.core.invoke(
        'import_candidates',
        { ...h.owner, locale: 'es' },
        {
          ...STATEMENT,
          candidates: ['netflix:month:1', { id: 'netflix:month:1', name: 'Netflix 4K' }],
        },
      ),
    );
    expect(twice.issues).toEqual([
      {
        path: 'candidates.1',
        message:
          '«netflix:month:1» aparece dos veces con cambios: ponlo una sola vez. No se ha importado nada.',
      },
    ]);
    expect(await dumpDatabase(h.db)).toBe(before);
    // An id alone listed twice still counts once.
    const { output } = await h.core.invoke('import_candidates', h.owner, {
      ...STATEMENT,
      candidates: ['netflix:month:1', 'netflix:month:1'],
    });
    expect(output.created).toBe(1);
  });

  it('writes nothing when it fails part-way, the new category included', async () => {
    const before = await dumpDatabase(h.db);
    const boom = new Error('the disk filled up');
    const error = await h.core
      .invoke('import_candidates', h.owner, EDITED, {
        beforeCommit: async () => {
          throw boom;
        },
      })
      .catch((e: unknown) => e);
    expect(error).toBe(boom);
    expect(await dumpDatabase(h.db)).toBe(before);
  });
});

describe(`import_candidates with edits from two Cores at once (${TEST_DIALECT})`, () => {
  let shared: SharedTestDatabase;
  afterEach(async () => shared.close());

  it('imports the statement once; the other is told it was imported', async () => {
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
      a.invoke('import_candidates', ana, EDITED),
      b.invoke('import_candidates', ana, {
        ...EDITED,
        candidates: [{ id: 'netflix:month:1', name: 'Netflix Basic', category: 'Video' }],
      }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((r) => r.status === 'rejected');
    const reason: unknown = rejected?.status === 'rejected' ? rejected.reason : null;
    expect(reason instanceof OpError && reason.code).toBe('conflict');
    expect(reason instanceof OpError && reason.render('en')).toMatch(
      /^This statement was already imported on \w{3}, \d{1,2} \w{3} \d{4}\. Nothing was imported again\.$/,
    );
    // Only the winner's subscriptions and category exist.
    const names = await a.db.knex('subscriptions').select('name').orderBy('name');
    const categories = await a.db.knex('categories').select('name');
    const won = results[0]?.status === 'fulfilled';
    expect(names.map((r: { name: string }) => r.name)).toEqual(
      won ? ['Iron Gym', 'Netflix Premium'] : ['Netflix Basic'],
    );
    expect(categories.map((r: { name: string }) => r.name)).not.toContain(
      won ? 'Video' : 'Streaming',
    );
  });
});
