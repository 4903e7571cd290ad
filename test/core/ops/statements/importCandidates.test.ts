import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { Core } from '../../../../core/kernel/core.ts';
import { OpError } from '../../../../core/errors/index.ts';
import { catalog } from '../../../../core/ops/catalog.ts';
import { dumpDatabase } from '../../../helpers/dump.ts';
import {
  createTestHousehold,
  TEST_DIALECT,
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
      'This statement was already imported on 2026-03-02. Nothing was imported again.',
    );
    expect(await dumpDatabase(h.db)).toBe(before);
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
});
