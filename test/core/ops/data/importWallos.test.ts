import { readFileSync } from 'node:fs';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { OpError } from '../../../../core/errors/index.ts';
import { dumpDatabase } from '../../../helpers/dump.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';

const WALLOS = readFileSync(new URL('../../../fixtures/wallos/subscriptions.json', import.meta.url), 'utf8');

interface SubRow {
  name: string;
  amount_minor: number;
  currency: string;
  cycle_unit: string;
  cycle_every: number;
  first_charge_date: string;
  status: string;
  cancelled_on: string | null;
  contract_ends_on: string | null;
  category_id: string | null;
  payment_method_id: string | null;
  notes: string | null;
  url: string | null;
  member_id: string;
  private: number;
}

async function rowsByName(h: TestHousehold): Promise<Map<string, SubRow>> {
  const rows = (await h.db.knex('subscriptions').where({ household_id: h.householdId })) as SubRow[];
  return new Map(rows.map((r) => [r.name, { ...r, amount_minor: Number(r.amount_minor), cycle_every: Number(r.cycle_every) }]));
}

async function names(h: TestHousehold, table: 'categories' | 'payment_methods'): Promise<string[]> {
  return (await h.db.knex(table).where({ household_id: h.householdId }).pluck('name')).sort();
}

describe('import_data (Wallos export)', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('fails in strict mode on a dollar price a euro household can\'t place, naming it, and writes nothing', async () => {
    const before = await dumpDatabase(h.db);
    const error = await h.core.invoke('import_data', h.owner, { document: WALLOS }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpError);
    const text = (error as OpError).render('en');
    expect(text).toContain('Nothing was imported: 1 of the file');
    expect(text).toContain('- Subscription 6 (GitHub Copilot) › Price: "$" is used by several currencies');
    expect(await dumpDatabase(h.db)).toBe(before);
  });

  it('imports every subscription once told what "$" means', async () => {
    const { output } = await h.core.invoke('import_data', h.owner, { document: WALLOS, currency: 'USD' });
    expect(output).toMatchObject({ format: 'wallos', created: 9, skipped: 0, invalid: 0, problems: [] });
    expect(output.also_created).toEqual({ categories: 6, payment_methods: 4, tags: 0, charges: 0, price_changes: 0, exchange_rates: 0 });
    expect(output.warnings).toEqual([]);
    expect(await names(h, 'payment_methods')).toEqual(['Apple Pay', 'Credit Card', 'Direct Debit', 'PayPal']);

    const subs = await rowsByName(h);
    expect(subs.get('Netflix')).toMatchObject({ amount_minor: 1799, currency: 'EUR', cycle_unit: 'month', cycle_every: 1, first_charge_date: '2026-03-15', status: 'active', notes: 'Premium plan  4K  4 screens', member_id: h.ownerId, private: 0 });
    expect(subs.get('Amazon Prime')).toMatchObject({ amount_minor: 4990, cycle_unit: 'year', url: 'https://amazon.es' });
    expect(subs.get('The Economist')).toMatchObject({ amount_minor: 5900, cycle_unit: 'month', cycle_every: 3 });
    expect(subs.get('Gym')).toMatchObject({ amount_minor: 2450, cycle_unit: 'week', cycle_every: 2, contract_ends_on: '2026-06-30' });
    expect(subs.get('GitHub Copilot')).toMatchObject({ amount_minor: 1000, currency: 'USD' });
    expect(subs.get('Disney+')).toMatchObject({ status: 'cancelled', cancelled_on: '2026-01-20', notes: 'Cancelled after The Mandalorian' });
    expect(subs.get('Domain example.org')).toMatchObject({ cycle_unit: 'year', cycle_every: 2, category_id: null });
  });

  it('creates the categories and payment methods the file names, once each', async () => {
    await h.core.invoke('import_data', h.owner, { document: WALLOS, currency: 'USD' });
    expect(await names(h, 'categories')).toEqual(['Cloud Services', 'Entertainment', 'Health & Wellbeing', 'Music', 'News & Magazines', 'Software']);
  });

  it('adds nothing when the same export is imported twice', async () => {
    await h.core.invoke('import_data', h.owner, { document: WALLOS, currency: 'USD' });
    const before = await dumpDatabase(h.db);
    const { output } = await h.core.invoke('import_data', h.owner, { document: WALLOS, currency: 'USD' });
    expect(output).toMatchObject({ created: 0, skipped: 9 });
    expect(await dumpDatabase(h.db)).toBe(before);
  });

  it('with skip_invalid imports the rest and reports the dollar price', async () => {
    const { output } = await h.core.invoke('import_data', h.owner, { document: WALLOS, skip_invalid: true });
    expect(output).toMatchObject({ created: 8, invalid: 1 });
    expect(output.problems).toHaveLength(1);
    expect(output.problems[0]).toMatchObject({ item: 6, name: 'GitHub Copilot', field: 'Price' });
    expect((await rowsByName(h)).has('GitHub Copilot')).toBe(false);
  });

  it('reads "$" as the household currency when it is a dollar', async () => {
    const usd = await createTestHousehold({ currency: 'USD' });
    try {
      const { output } = await usd.core.invoke('import_data', usd.owner, { document: WALLOS });
      expect(output.created).toBe(9);
      expect((await rowsByName(usd)).get('GitHub Copilot')?.currency).toBe('USD');
      expect((await rowsByName(usd)).get('Netflix')?.currency).toBe('EUR');
    } finally {
      await usd.close();
    }
  });

  it('previews a Wallos import in a dry run without writing', async () => {
    const before = await dumpDatabase(h.db);
    const preview = await h.core.invoke('import_data', h.owner, { document: WALLOS, currency: 'USD' }, { dryRun: true });
    expect(preview.output.created).toBe(9);
    expect(preview.changes.filter((c) => c.table === 'subscriptions')).toHaveLength(9);
    expect(await dumpDatabase(h.db)).toBe(before);
  });

  it('names a price with too many decimals by its Wallos field', async () => {
    const file = JSON.stringify([{ Name: 'Tidal', 'Payment Cycle': 'Monthly', 'Next Payment': '2026-03-10', Price: '€10.999', Active: 'Yes' }]);
    const error = await h.core.invoke('import_data', h.owner, { document: file }).catch((e: unknown) => e);
    expect((error as OpError).render('en')).toContain('- Subscription 1 (Tidal) › Price: EUR amounts have at most 2 decimals.');
  });

  it('reads the API response shape, assuming the household currency and saying so', async () => {
    const response = {
      success: true,
      title: 'subscriptions',
      subscriptions: [{ id: 1, name: 'Netflix', price: 17.99, currency_id: 1, next_payment: '2026-03-15', cycle: 3, frequency: 1, category_name: 'Entertainment', payment_method_name: 'Credit Card', notes: '', url: '', inactive: 0, cancellation_date: '' }],
      notes: [],
    };
    const { output } = await h.core.invoke('import_data', h.owner, { document: response, format: 'wallos' });
    expect(output.created).toBe(1);
    expect(output.warnings).toEqual([{ item: 1, name: 'Netflix', field: 'currency_code', message: "The file doesn't say the currency; EUR was assumed." }]);
  });
});
