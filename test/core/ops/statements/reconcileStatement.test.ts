import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Actor } from '../../../../core/kernel/actor.ts';
import {
  createTestHousehold,
  TEST_DIALECT,
  type TestHousehold,
} from '../../../helpers/testCore.ts';
import { dumpDatabase } from '../../../helpers/dump.ts';
import { csv } from './statement.ts';

/**
 * Three months of a card, each line placed on an edge of a match rule (see each comment). Today
 * (TEST_NOW) is 2026-03-02; the household is in EUR.
 */
const ROWS: Array<[string, string, string]> = [
  // Netflix, due the 3rd: 2 days late is a match, 3 days late is for review, 0.50 over is a match.
  ['2025-12-05', 'NETFLIX.COM 866-579-7172', '-15.99'],
  ['2026-01-06', 'NETFLIX.COM 866-579-7172', '-15.99'],
  ['2026-02-03', 'NETFLIX.COM 866-579-7172', '-16.49'],
  // Home insurance 120.00 on the 10th: 1% (1.20) over matches, 1.21 over is for review.
  ['2025-12-10', 'ALLIANZ VERSICHERUNG 4471', '-121.20'],
  ['2026-01-10', 'ALLIANZ VERSICHERUNG 4472', '-121.21'],
  ['2026-02-10', 'ALLIANZ VERSICHERUNG 4473', '-120.00'],
  // Adobe charges 59.99 USD; at 1.20 USD a EUR that is 49.99 EUR.
  ['2025-12-20', 'ADOBE *CREATIVE CLOUD', '-50.10'],
  ['2026-01-20', 'ADOBE *CREATIVE CLOUD', '-49.99'],
  ['2026-02-20', 'ADOBE *CREATIVE CLOUD', '-49.99'],
  // Disney+ on the 15th, under a name sharing no word with it: for review (merchant).
  ['2026-01-15', 'DSNY PLUS 0815', '-8.99'],
  // Bea's private gym, on the 15th.
  ['2025-12-15', 'SQ *IRON GYM 4401 London', '-30.00'],
  ['2026-01-15', 'SQ *IRON GYM 4402 London', '-30.00'],
  ['2026-02-16', 'SQ *IRON GYM 4403 London', '-30.00'],
  // Audible: recurring, tracked by no one.
  ['2025-12-08', 'AUDIBLE GMBH', '-9.95'],
  ['2026-01-08', 'AUDIBLE GMBH', '-9.95'],
  ['2026-02-08', 'AUDIBLE GMBH', '-9.95'],
  ['2025-12-12', 'LIDL DANKT 0391', '-23.50'],
  ['2026-01-27', 'ACME GMBH GEHALT', '2500.00'],
  ['2026-02-27', 'REWE 0391', '-41.20'],
];
const STATEMENT = { file_name: 'card.csv', content: csv(ROWS) };

async function subscription(
  h: TestHousehold,
  actor: Actor,
  fields: {
    name: string;
    amount: string;
    first: string;
    currency?: string;
    vendor?: string;
    private?: boolean;
  },
): Promise<string> {
  const { output } = await h.core.invoke('create_subscription', actor, {
    name: fields.name,
    amount: fields.amount,
    currency: fields.currency ?? 'EUR',
    cycle: { unit: 'month' },
    first_charge_date: fields.first,
    ...(fields.vendor ? { vendor: fields.vendor } : {}),
    ...(fields.private ? { private: true } : {}),
  });
  return output.id;
}

describe(`reconcile_statement (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  let bea: Actor;
  const ids: Record<string, string> = {};
  beforeEach(async () => {
    h = await createTestHousehold();
    bea = await h.addMember('Bea');
    ids.netflix = await subscription(h, h.owner, {
      name: 'Netflix',
      amount: '15.99',
      first: '2025-12-03',
    });
    ids.insurance = await subscription(h, h.owner, {
      name: 'Home insurance',
      vendor: 'Allianz',
      amount: '120.00',
      first: '2025-12-10',
    });
    ids.adobe = await subscription(h, h.owner, {
      name: 'Creative Cloud',
      vendor: 'Adobe',
      amount: '59.99',
      currency: 'USD',
      first: '2025-12-20',
    });
    ids.disney = await subscription(h, h.owner, {
      name: 'Disney+',
      amount: '8.99',
      first: '2026-01-15',
    });
    ids.spotify = await subscription(h, h.owner, {
      name: 'Spotify',
      amount: '10.99',
      first: '2025-12-05',
    });
    ids.gym = await subscription(h, bea, {
      name: 'Iron Gym',
      amount: '30.00',
      first: '2025-12-15',
      private: true,
    });
    await h.core.invoke('set_exchange_rate', h.owner, {
      currency: 'USD',
      rate: '1.20',
      date: '2025-11-01',
    });
  });
  afterEach(async () => h.close());

  it('sorts every charge of the period into matched, to review, missing, and the recurring lines no one tracks', async () => {
    const before = await dumpDatabase(h.db);
    const { output } = await h.core.invoke('reconcile_statement', h.owner, STATEMENT);
    expect(await dumpDatabase(h.db)).toBe(before);
    expect(output.period).toEqual({ from: '2025-12-05', to: '2026-02-27' });
    expect(output.currency).toBe('EUR');
    const brief = (i: { name: string; charge_date: string; actual_amount: string }) =>
      `${i.name} ${i.charge_date} ${i.actual_amount}`;
    expect(output.matched.map(brief)).toEqual([
      'Netflix 2025-12-03 15.99',
      'Home insurance 2025-12-10 121.20',
      'Creative Cloud 2025-12-20 50.10',
      'Creative Cloud 2026-01-20 49.99',
      'Netflix 2026-02-03 16.49',
      'Home insurance 2026-02-10 120.00',
      'Creative Cloud 2026-02-20 49.99',
    ]);
    expect(output.matched[0]).toMatchObject({
      subscription_id: ids.netflix,
      status: 'expected',
      expected_amount: '15.99',
      expected_currency: 'EUR',
      actual_currency: 'EUR',
      actual_amount: '15.99',
      line: { date: '2025-12-05', text: 'NETFLIX.COM 866-579-7172' },
    });
    expect(output.matched[2]).toMatchObject({ expected_amount: '59.99', expected_currency: 'USD' });
    expect(output.needs_review.map((r) => `${brief(r)} ${r.off}: ${r.detail}`)).toEqual([
      'Netflix 2026-01-03 15.99 date: the date is 3 days off',
      'Home insurance 2026-01-10 121.21 amount: expected 120.00 EUR, charged 121.21 EUR',
      "Disney+ 2026-01-15 8.99 merchant: the merchant's name differs",
    ]);
    expect(output.missing.map((m) => `${m.name} ${m.charge_date} ${m.expected_amount}`)).toEqual([
      'Spotify 2025-12-05 10.99',
      'Spotify 2026-01-05 10.99',
      'Spotify 2026-02-05 10.99',
      'Disney+ 2026-02-15 8.99',
    ]);
    expect(output.untracked.map((u) => `${u.name} ${u.amount} ${u.charges}`).sort()).toEqual([
      'Audible 9.95 3',
      'Iron Gym 30.00 3',
    ]);
    expect(output.to_mark).toHaveLength(7);
    expect(output.to_mark[2]).toEqual({
      subscription_id: ids.adobe,
      charge_date: '2025-12-20',
      amount: '50.10',
      currency: 'EUR',
    });
  });

  it("never shows another member's private subscription, and shows its owner their own", async () => {
    const ana = await h.core.invoke('reconcile_statement', h.owner, STATEMENT);
    expect(JSON.stringify(ana.output)).not.toContain(ids.gym);
    const own = await h.core.invoke('reconcile_statement', bea, STATEMENT);
    expect(
      own.output.matched.filter((m) => m.subscription_id === ids.gym).map((m) => m.charge_date),
    ).toEqual(['2025-12-15', '2026-01-15', '2026-02-15']);
    expect(own.output.untracked.map((u) => u.name)).toEqual(['Audible']);
  });

  it('compares amounts in another currency only through a rate, and says so in a household without one', async () => {
    const other = await createTestHousehold();
    try {
      const adobe = await subscription(other, other.owner, {
        name: 'Creative Cloud',
        vendor: 'Adobe',
        amount: '59.99',
        currency: 'USD',
        first: '2025-12-20',
      });
      const { output } = await other.core.invoke('reconcile_statement', other.owner, STATEMENT);
      expect(output.matched.filter((m) => m.subscription_id === adobe)).toEqual([]);
      expect(
        output.needs_review.filter((r) => r.subscription_id === adobe).map((r) => r.detail),
      ).toEqual([
        'no exchange rate from USD to EUR to compare the amounts',
        'no exchange rate from USD to EUR to compare the amounts',
        'no exchange rate from USD to EUR to compare the amounts',
      ]);
    } finally {
      await other.close();
    }
  });

  it('tells a charge already recorded apart, and leaves it out of what to mark', async () => {
    await h.core.invoke('mark_charge_paid', h.owner, {
      subscription_id: ids.netflix,
      due_date: '2025-12-03',
      amount: '15.99',
    });
    await h.core.invoke('skip_charge', h.owner, {
      subscription_id: ids.spotify,
      due_date: '2026-01-05',
    });
    const { output } = await h.core.invoke('reconcile_statement', h.owner, STATEMENT);
    expect(output.matched[0]).toMatchObject({ subscription_id: ids.netflix, status: 'paid' });
    expect(output.to_mark.some((m) => m.charge_date === '2025-12-03')).toBe(false);
    expect(output.missing.map((m) => m.charge_date)).not.toContain('2026-01-05');
  });

  it('answers in Spanish for a Spanish reader', async () => {
    const es = { ...h.owner, locale: 'es' as const };
    const { output } = await h.core.invoke('reconcile_statement', es, STATEMENT);
    expect(output.needs_review[0]?.detail).toBe('la fecha difiere en 3 días');
  });
});
