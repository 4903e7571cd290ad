import { date, money } from './format.ts';
import { t } from './i18n.ts';
import type { Out } from './types.ts';

type Conversion = Out<'get_totals'>['conversion'];

/** The notes a total carries about its exchange rates: old rates, and amounts left out. */
export function rateNotes(conversion: Conversion): string[] {
  const notes: string[] = [];
  for (const rate of conversion.rates) {
    if (rate.stale) {
      notes.push(
        t('rates.stale', {
          currency: rate.currency,
          date: date(rate.date, 'long'),
          source: t(`rates.source.${rate.source}`),
        }),
      );
    }
  }
  if (conversion.partial) {
    const left = conversion.left_out.map((l) => money(l.amount, l.currency)).join(', ');
    notes.push(t('rates.partial', { amounts: left }));
  }
  return notes;
}
