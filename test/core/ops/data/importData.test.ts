import { readFileSync } from 'node:fs';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { OpError } from '../../../../core/errors/index.ts';
import type { ExhaleDocument } from '../../../../core/ops/data/_lib/document.ts';
import { dumpDatabase } from '../../../helpers/dump.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';
import { fillHousehold } from './household.ts';

const FIXTURE = readFileSync(new URL('../../../fixtures/exhale/household-v1.json', import.meta.url), 'utf8');

async function exportJson(h: TestHousehold, actor = h.owner): Promise<ExhaleDocument> {
  const { output } = await h.core.invoke('export_data', actor, {});
  if (!output.document) throw new Error('expected a JSON export');
  return output.document;
}

/** A subscription as a person would compare two households: no ids, owners or timestamps. */
function comparable(s: ExhaleDocument['subscriptions'][number]) {
  const { id: _id, member_id: _member, created_at: _created, updated_at: _updated, shares, ...rest } = s;
  return { ...rest, split: shares.length > 0 };
}

function sub(name: string, amount = '9.99', extra: Record<string, unknown> = {}) {
  return { name, amount, currency: 'EUR', cycle: { unit: 'month', every: 1 }, first_charge_date: '2026-01-10', ...extra };
}

function doc(subscriptions: unknown[], extra: Record<string, unknown> = {}) {
  return { format: 'exhale/1', subscriptions, ...extra };
}

async function failure(promise: Promise<unknown>): Promise<OpError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof OpError)) throw new Error(`expected an OpError, got ${String(error)}`);
  return error;
}

describe('import_data (Exhale format)', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('refuses a document nested 5,000 deep, as text or already parsed, with a sentence and nothing imported', async () => {
    const deep = `{"format":"exhale/1","subscriptions":[${'['.repeat(5_000)}${']'.repeat(5_000)}]}`;
    for (const document of [deep, JSON.parse(deep) as unknown]) {
      const error = await failure(h.core.invoke('import_data', h.owner, { document }));
      expect(error.code).toBe('invalid_input');
      expect(error.render('en')).toMatch(/nest|level/i);
    }
    const text = await failure(h.core.invoke('import_data', h.owner, { document: deep }));
    expect(text).toMatchObject({ key: 'errors.data.too_deep', params: { max: 64 } });
    expect((await h.core.invoke('list_subscriptions', h.owner, {})).output.total).toBe(0);
  });

  it('round-trips: export, import into a fresh household, export again gives the same subscriptions', async () => {
    const source = await createTestHousehold();
    try {
      await fillHousehold(source);
      const first = await exportJson(source);
      const { output } = await h.core.invoke('import_data', h.owner, { document: JSON.stringify(first) });
      expect(output).toMatchObject({ format: 'exhale', created: 7, skipped: 0, invalid: 0, problems: [] });
      // What the import could not keep is said: Luis's subscription and a split become the importer's.
      expect(output.warnings.map((w) => [w.name, w.field])).toEqual([
        ['Chess.com, Diamond', 'member_id'],
        ['Netflix', 'shares'],
      ]);
      expect(output.also_created).toEqual({ categories: 4, payment_methods: 1, tags: 2, charges: 4, price_changes: 1, exchange_rates: 1 });

      const second = await exportJson(h);
      expect(second.subscriptions.map(comparable)).toEqual(first.subscriptions.map(comparable));
      expect(second.categories).toEqual(first.categories);
      expect(second.payment_methods).toEqual(first.payment_methods);
      expect(second.tags).toEqual(first.tags);
      expect(second.exchange_rates).toEqual(first.exchange_rates);
      // every member of the file maps to the importer: a split collapses to them paying all of it
      expect(second.subscriptions.every((s) => s.member_id === h.ownerId)).toBe(true);
      expect(second.subscriptions.find((s) => s.name === 'Netflix')?.shares).toEqual([{ member_id: h.ownerId, percent: '100.00' }]);
      // Chat accounts stay where they are: the file carries none, and the import links none.
      expect(await h.db.knex('member_identities')).toEqual([]);
      expect(await source.db.knex('member_identities').pluck('id')).toEqual(expect.arrayContaining(['telegram:987654321', 'slack:U0SECRET']));
    } finally {
      await source.close();
    }
  });

  it('adds nothing when the same file is imported twice', async () => {
    const first = await h.core.invoke('import_data', h.owner, { document: FIXTURE });
    expect(first.output.created).toBe(3);
    const before = await dumpDatabase(h.db);
    const again = await h.core.invoke('import_data', h.owner, { document: FIXTURE });
    expect(again.output).toMatchObject({ created: 0, skipped: 3, invalid: 0 });
    expect(again.output.items.map((i) => i.result)).toEqual(['skipped', 'skipped', 'skipped']);
    expect(again.output.also_created).toEqual({ categories: 0, payment_methods: 0, tags: 0, charges: 0, price_changes: 0, exchange_rates: 0 });
    expect(again.auditId).toBeNull();
    expect(await dumpDatabase(h.db)).toBe(before);
  });

  it('reads a hand-written exhale/1 file: catalog details, charges, price changes and rates', async () => {
    const { output } = await h.core.invoke('import_data', h.owner, { document: FIXTURE });
    expect(output.items).toEqual([
      { item: 1, name: 'Netflix', result: 'created', subscription_id: expect.any(String) },
      { item: 2, name: 'Gym', result: 'created', subscription_id: expect.any(String) },
      { item: 3, name: 'Diary app', result: 'created', subscription_id: expect.any(String) },
    ]);
    const streaming = await h.db.knex('categories').where({ household_id: h.householdId, name: 'Streaming' }).first();
    expect(streaming.color).toBe('#E50914');
    const card = await h.db.knex('payment_methods').where({ household_id: h.householdId, name: 'Joint Visa' }).first();
    expect([card.kind, card.last4]).toEqual(['card', '4242']);
    const netflixId = output.items[0]?.subscription_id ?? '';
    const charges = await h.db.knex('charges').where({ subscription_id: netflixId }).orderBy('due_date');
    expect(charges.map((c: { due_date: string; amount_minor: number }) => [c.due_date, Number(c.amount_minor)])).toEqual([
      ['2026-01-05', 1599],
      ['2026-02-05', 1799],
    ]);
    const rate = await h.db.knex('fx_rates').where({ household_id: h.householdId, currency: 'USD' }).first();
    expect([rate.date, Number(rate.per_eur), rate.source]).toEqual(['2026-02-01', 1.0823, 'manual']);
  });

  it("keeps the private flag only on the importer's own subscriptions", async () => {
    // the file was exported by Ana: her Diary stays private; Luis's Gym becomes the importer's and shared
    const { output } = await h.core.invoke('import_data', h.owner, { document: FIXTURE });
    const rows = await h.db.knex('subscriptions').whereIn('id', output.items.map((i) => i.subscription_id ?? ''));
    const byName = new Map(rows.map((r: { name: string; private: number; member_id: string }) => [r.name, r]));
    expect(byName.get('Diary app')?.private).toBe(1);
    expect(byName.get('Gym')?.private).toBe(0);
    expect(rows.every((r: { member_id: string }) => r.member_id === h.ownerId)).toBe(true);
  });

  it('makes the member who imports the owner of everything, and leaves exchange rates to the owner', async () => {
    const luis = await h.addMember('Luis', 'es');
    const { output } = await h.core.invoke('import_data', luis, { document: FIXTURE });
    expect(output.created).toBe(3);
    expect(output.also_created.exchange_rates).toBe(0);
    expect(output.warnings).toContainEqual({
      item: null,
      name: null,
      field: 'exchange_rates',
      message: 'No se importaron los tipos de cambio: solo los fija el propietario del hogar.',
    });
    expect(output.warnings.filter((w) => w.field !== 'exchange_rates').map((w) => w.message)).toContain(
      'Importada como tuya y pagada entera por ti: no se conservan el titular ni el reparto del archivo.',
    );
    const owners = await h.db.knex('subscriptions').where({ household_id: h.householdId }).distinct('member_id');
    expect(owners).toEqual([{ member_id: luis.memberId }]);
    expect(await h.db.knex('fx_rates').where({ household_id: h.householdId })).toEqual([]);
  });

  it('matches categories, payment methods and tags by name regardless of case', async () => {
    await h.core.invoke('create_subscription', h.owner, { name: 'Hulu', amount: '7.99', category: 'streaming', payment_method: 'JOINT VISA', tags: ['Family'] });
    const { output } = await h.core.invoke('import_data', h.owner, { document: FIXTURE });
    expect(output.also_created).toMatchObject({ categories: 1, payment_methods: 0, tags: 1 });
    const categories = await h.db.knex('categories').where({ household_id: h.householdId }).orderBy('name');
    expect(categories.map((c: { name: string }) => c.name)).toEqual(['Sport', 'streaming']);
    const netflix = await h.db.knex('subscriptions').where({ id: output.items[0]?.subscription_id ?? '' }).first();
    expect(netflix.category_id).toBe(categories[1].id);
  });

  it('previews in a dry run: the result and the changes, with nothing written', async () => {
    const before = await dumpDatabase(h.db);
    const preview = await h.core.invoke('import_data', h.owner, { document: FIXTURE }, { dryRun: true });
    expect(preview.dryRun).toBe(true);
    expect(preview.output.created).toBe(3);
    expect(preview.changes.filter((c) => c.table === 'subscriptions')).toHaveLength(3);
    expect(preview.changes.filter((c) => c.table === 'charges')).toHaveLength(3);
    expect(await dumpDatabase(h.db)).toBe(before);
  });

  it('is undone as one entry', async () => {
    const before = await dumpDatabase(h.db, { except: ['audit_entries'] });
    const { auditId } = await h.core.invoke('import_data', h.owner, { document: FIXTURE });
    await h.core.invoke('undo', h.owner, { ids: [auditId ?? ''] });
    expect(await dumpDatabase(h.db, { except: ['audit_entries'] })).toBe(before);
  });

  it('accepts the document already parsed', async () => {
    const { output } = await h.core.invoke('import_data', h.owner, { document: doc([sub('Spotify', '10.99')]) });
    expect(output).toMatchObject({ format: 'exhale', created: 1 });
  });

  it('fails the whole import in strict mode, naming each invalid subscription, in the reader\'s language', async () => {
    const before = await dumpDatabase(h.db);
    const file = doc([sub('Spotify'), sub('Cloud', '9.999'), sub('Weird', '5', { currency: 'XYZ' })]);
    const error = await failure(h.core.invoke('import_data', h.owner, { document: file }));
    expect(error.code).toBe('invalid_input');
    expect(error.key).toBe('errors.data.invalid_items');
    expect(error.params).toEqual({ count: 2 });
    const en = error.render('en');
    expect(en).toContain('Nothing was imported: 2 of the file');
    expect(en).toContain('- Subscription 2 (Cloud) › amount: EUR amounts have at most 2 decimals.');
    expect(en).toContain('- Subscription 3 (Weird) › currency: Must be a currency code like "EUR" or "USD".');
    const luis = await h.addMember('Luis', 'es');
    const before2 = await dumpDatabase(h.db);
    const es = await failure(h.core.invoke('import_data', luis, { document: file }));
    expect(es.render('es')).toContain('- Suscripción 2 (Cloud) › amount: Los importes en EUR tienen como máximo 2 decimales.');
    expect(await dumpDatabase(h.db)).toBe(before2);
    expect(before2).not.toBe(before);
  });

  it('with skip_invalid imports the valid subscriptions and reports the others', async () => {
    const file = doc([sub('Spotify'), sub('Cloud', '9.999'), sub('Max', '8.99', { charges: [{ due_date: '2026-01-10', status: 'paid', amount: '8.99' }, { due_date: '2026-01-10', status: 'skipped' }] }), sub('Tidal', '11')]);
    const { output } = await h.core.invoke('import_data', h.owner, { document: file, skip_invalid: true });
    expect(output).toMatchObject({ created: 2, skipped: 0, invalid: 2 });
    expect(output.items.map((i) => [i.name, i.result])).toEqual([
      ['Spotify', 'created'],
      ['Cloud', 'invalid'],
      ['Max', 'invalid'],
      ['Tidal', 'created'],
    ]);
    expect(output.problems).toEqual([
      { item: 2, name: 'Cloud', field: 'amount', message: 'EUR amounts have at most 2 decimals.' },
      { item: 3, name: 'Max', field: 'charges.1.due_date', message: 'Two charges are recorded on 2026-01-10.' },
    ]);
    const names = await h.db.knex('subscriptions').where({ household_id: h.householdId }).orderBy('name').pluck('name');
    expect(names).toEqual(['Spotify', 'Tidal']);
  });

  it('skips a subscription of the file that matches another of the same file', async () => {
    const { output } = await h.core.invoke('import_data', h.owner, { document: doc([sub('Spotify'), sub('spotify '), sub('Spotify', '9.99', { cycle: { unit: 'year', every: 1 } })]) });
    expect(output.items.map((i) => i.result)).toEqual(['created', 'skipped', 'created']);
  });

  it('refuses a trial without its end date and shares that do not add up', async () => {
    const file = doc([sub('Max', '9.99', { status: 'trial' }), sub('Netflix', '15.99', { shares: [{ member_id: 'mem_a', percent: '60' }] })]);
    const error = await failure(h.core.invoke('import_data', h.owner, { document: file }));
    expect(error.render('en')).toContain('Subscription 1 (Max) › trial_ends_on: A trial needs the date it ends');
    expect(error.render('en')).toContain('Subscription 2 (Netflix) › shares: Shares must add up to 100%.');
  });
});

describe('import_data refuses bad files clearly and writes nothing', () => {
  let h: TestHousehold;
  let before: string;
  beforeEach(async () => {
    h = await createTestHousehold();
    before = await dumpDatabase(h.db);
  });
  afterEach(async () => {
    expect(await dumpDatabase(h.db)).toBe(before);
    await h.close();
  });

  it('refuses text that is not JSON', async () => {
    const error = await failure(h.core.invoke('import_data', h.owner, { document: '{"format": "exhale/1", "subscriptions": [' }));
    expect([error.code, error.render('en')]).toEqual(['invalid_input', "The file isn't valid JSON. Nothing was imported."]);
  });

  it('refuses JSON that is neither an Exhale nor a Wallos export', async () => {
    for (const document of ['{"hello": "world"}', '[1, 2, 3]', '"text"']) {
      const error = await failure(h.core.invoke('import_data', h.owner, { document }));
      expect(error.key).toBe('errors.data.unknown_format');
    }
    const error = await failure(h.core.invoke('import_data', h.owner, { document: { items: [] } }));
    expect(error.render('es')).toContain('Esto no es una exportación de Exhale ni de Wallos');
  });

  it('refuses an Exhale file of the wrong shape, naming the field', async () => {
    const error = await failure(h.core.invoke('import_data', h.owner, { document: { format: 'exhale/1', subscriptions: 'none', categories: [{ name: 'Music', color: 'red' }] } }));
    expect(error.key).toBe('errors.data.bad_document');
    expect(error.issues.map((i) => i.path).sort()).toEqual(['categories.0.color', 'subscriptions']);
    expect(error.render('en')).toContain('categories.0.color: Must be a colour written #RRGGBB');
  });

  it('refuses a newer version of the format', async () => {
    const error = await failure(h.core.invoke('import_data', h.owner, { document: '{"format": "exhale/2", "subscriptions": []}' }));
    expect(error.render('en')).toBe('This file is in the format "exhale/2", which this version of Exhale can\'t read (it reads "exhale/1"). Nothing was imported.');
  });

  it('refuses a format that is given but does not match', async () => {
    const error = await failure(h.core.invoke('import_data', h.owner, { document: FIXTURE, format: 'wallos' }));
    expect(error.render('en')).toBe("This doesn't look like a Wallos export. Nothing was imported.");
  });

  it('refuses files over 5 MB, as text or parsed', async () => {
    const padding = 'x'.repeat(5 * 1024 * 1024);
    const text = await failure(h.core.invoke('import_data', h.owner, { document: `{"format":"exhale/1","subscriptions":[],"pad":"${padding}"}` }));
    expect([text.code, text.render('en')]).toEqual(['too_large', 'The file is larger than 5 MB. Nothing was imported.']);
    const parsed = await failure(h.core.invoke('import_data', h.owner, { document: { format: 'exhale/1', subscriptions: [], pad: padding } }));
    expect(parsed.code).toBe('too_large');
    expect(parsed.render('es')).toBe('El archivo ocupa más de 5 MB. No se importó nada.');
  });

  it('refuses what the ops themselves would refuse: a charge beside the series, a pause without its date, a price change in another currency', async () => {
    const source = await createTestHousehold();
    try {
      const sub = await source.core.invoke('create_subscription', source.owner, {
        name: 'Cloud',
        amount: '5.00',
        first_charge_date: '2026-01-15',
      });
      await source.core.invoke('mark_charge_paid', source.owner, {
        subscription_id: sub.output.id,
        due_date: '2026-02-15',
      });
      await source.core.invoke('update_subscription', source.owner, {
        id: sub.output.id,
        amount: '6.00',
        price_effective_date: '2026-02-01',
      });
      const doc = await exportJson(source);
      const item = doc.subscriptions[0]!;
      const broken = {
        ...doc,
        subscriptions: [
          { ...item, charges: item.charges.map((c) => ({ ...c, due_date: '2026-02-03' })) },
          { ...item, name: 'Paused', status: 'paused', paused_on: null, charges: [] },
          {
            ...item,
            name: 'Dollars',
            charges: [],
            price_changes: item.price_changes.map((p) => ({ ...p, currency: 'USD' })),
          },
        ],
      };
      const { output } = await h.core.invoke('import_data', h.owner, {
        document: JSON.stringify(broken),
        skip_invalid: true,
      });
      expect(output).toMatchObject({ created: 0, invalid: 3 });
      expect(output.problems.map((p) => p.field)).toEqual([
        'charges.0.due_date',
        'paused_on',
        'price_changes.0.currency',
      ]);
      expect(output.problems[0]?.message).toContain('Cloud is not charged on 2026-02-03');
    } finally {
      await source.close();
    }
  });
});

