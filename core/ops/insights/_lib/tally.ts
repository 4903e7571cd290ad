import { z } from 'zod';

import type { IsoDate } from '../../../domain/dates.ts';
import { formatAmount } from '../../../domain/money.ts';
import type { Converter } from './convert.ts';

/** What a figure measures: an average month or year now, or charges in a period. */
export type Field = 'monthly' | 'paid' | 'expected';

export const Figures = z.object({
  monthly: z.string().optional().describe('Average cost per month now.'),
  yearly: z.string().optional().describe('Average cost per year now (12 average months).'),
  total: z.string().optional().describe('Charges in the period: paid plus expected.'),
  paid: z.string().optional().describe('Recorded paid amounts in the period.'),
  expected: z
    .string()
    .optional()
    .describe('Expected charges in the period not yet recorded (skipped ones excluded).'),
});
export type Figures = z.infer<typeof Figures>;

interface Entry {
  /** Subscriptions counted one by one (distinct), plus those counted in bulk. */
  ids: Set<string>;
  counted: number;
  /** `${field}|${currency}` → minor units, unrounded. */
  sums: Map<string, number>;
}

/**
 * Sums amounts per key (a group, a member, the whole household) and per currency, so each
 * currency converts once per key instead of once per amount, and counts the subscriptions.
 */
export class Tally {
  private readonly entries = new Map<string, Entry>();

  private entry(key: string): Entry {
    let entry = this.entries.get(key);
    if (!entry) this.entries.set(key, (entry = { ids: new Set(), counted: 0, sums: new Map() }));
    return entry;
  }

  add(key: string, field: Field, currency: string, minor: number): void {
    const sums = this.entry(key).sums;
    const sumKey = `${field}|${currency}`;
    sums.set(sumKey, (sums.get(sumKey) ?? 0) + minor);
  }

  /** Counts a subscription under a key once, however many amounts it adds. */
  countSubscription(key: string, id: string): void {
    this.entry(key).ids.add(id);
  }

  /** Counts subscriptions already counted elsewhere (in the database). */
  countMany(key: string, count: number): void {
    this.entry(key).counted += count;
  }

  keys(): string[] {
    return [...this.entries.keys()];
  }

  count(key: string): number {
    const entry = this.entries.get(key);
    return entry ? entry.ids.size + entry.counted : 0;
  }

  /**
   * The key's figures in the household currency: `monthly` and `yearly` for costs now (converted
   * on `date`), or `total`, `paid` and `expected` for a period (already converted per charge).
   * Also returns the main figure in minor units, for sorting.
   */
  figures(
    key: string,
    basis: 'now' | 'period',
    converter: Converter,
    date: IsoDate,
  ): { figures: Figures; main: number } {
    const sums = this.entries.get(key)?.sums ?? new Map<string, number>();
    const target = converter.target;
    const sum = (field: Field, times = 1): number => {
      let total = 0;
      for (const [sumKey, minor] of sums) {
        const [f, currency = target] = sumKey.split('|');
        if (f !== field) continue;
        total += converter.apply(minor * times, currency, date) ?? 0;
      }
      return Math.round(total);
    };
    if (basis === 'now') {
      const monthly = sum('monthly');
      return {
        figures: {
          monthly: formatAmount(monthly, target),
          yearly: formatAmount(sum('monthly', 12), target),
        },
        main: monthly,
      };
    }
    const paid = sum('paid');
    const expected = sum('expected');
    return {
      figures: {
        total: formatAmount(paid + expected, target),
        paid: formatAmount(paid, target),
        expected: formatAmount(expected, target),
      },
      main: paid + expected,
    };
  }
}
