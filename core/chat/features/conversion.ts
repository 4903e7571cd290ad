import type { Conversion } from '../../domain/schemas.ts';
import { decimal, formatDate, money } from '../format.ts';
import type { Turn } from '../turn.ts';

const MAX_LEFT_OUT = 5;

/**
 * The lines under a total that say how it was reached: each foreign currency's rate (its source
 * and date, and whether it is old), and, when some amounts had no rate, which ones were left out.
 * A total converted at a rate nobody can see is a number nobody can check. `monthly`: the amounts
 * left out are monthly costs (totals now, not a period), and each says so ("Dropbox 9.99 USD a
 * month" for 119.88 USD a year).
 */
export async function conversionLines(
  turn: Turn,
  conversion: Conversion | undefined,
  base: string,
  options: { monthly?: boolean } = {},
): Promise<string[]> {
  if (!conversion) return [];
  const lines: string[] = [];
  for (const rate of conversion.rates) {
    lines.push(
      turn.t(rate.stale ? 'chat.totals.rate_stale' : 'chat.totals.rate', {
        currency: rate.currency,
        rate: decimal(rate.rate, turn.locale),
        base,
        source: turn.t(`chat.totals.rate_source.${rate.source}`),
        date: formatDate(rate.date, turn.locale),
      }),
    );
  }
  if (conversion.partial) {
    const names = new Map<string, string>();
    for (const item of conversion.left_out.slice(0, MAX_LEFT_OUT)) {
      if (names.has(item.subscription_id)) continue;
      const found = await turn
        .invoke('get_subscription', { id: item.subscription_id })
        .then((r) => (r.output as { name: string }).name)
        .catch(() => null);
      if (found) names.set(item.subscription_id, found);
    }
    const items = conversion.left_out.slice(0, MAX_LEFT_OUT).map((i) => {
      const name = names.get(i.subscription_id) ?? '?';
      const amount = money(i.amount, i.currency, turn.locale);
      return options.monthly
        ? turn.t('chat.totals.left_out_monthly', { name, amount })
        : `${name} ${amount}`;
    });
    if (conversion.left_out.length > MAX_LEFT_OUT)
      items.push(turn.t('chat.upcoming.more', { n: conversion.left_out.length - MAX_LEFT_OUT }));
    lines.push(turn.t('chat.totals.partial_items', { items: items.join(', ') }));
  }
  return lines.length > 0 ? ['', ...lines] : [];
}
