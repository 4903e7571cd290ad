import type { Conversion } from '../../domain/schemas.ts';
import { type Locale, t } from '../../i18n/index.ts';
import { decimal, formatDate, money } from '../format.ts';
import type { Turn } from '../turn.ts';

/** How many left-out subscriptions a line names ("… and 3 more" after them). */
export const LEFT_OUT_NAMED = 5;
const MAX_LEFT_OUT = LEFT_OUT_NAMED;

/**
 * "⚠️ Left out, with no exchange rate: AT&T 30.00 USD a month." for a total's `left_out`, the
 * first LEFT_OUT_NAMED by the names found for them (`names`: subscription id → name as the reader
 * may see it, already escaped for the channel; "?" for one not found). Shared by chat's cards and
 * the adapters that show a total outside a conversation (Slack's App Home).
 */
export function leftOutSentence(
  locale: Locale,
  leftOut: Conversion['left_out'],
  names: ReadonlyMap<string, string>,
  options: { monthly?: boolean } = {},
): string {
  const items = leftOut.slice(0, MAX_LEFT_OUT).map((i) => {
    const name = names.get(i.subscription_id) ?? '?';
    const amount = money(i.amount, i.currency, locale);
    return options.monthly
      ? t(locale, 'chat.totals.left_out_monthly', { name, amount })
      : `${name} ${amount}`;
  });
  if (leftOut.length > MAX_LEFT_OUT)
    items.push(t(locale, 'chat.upcoming.more', { n: leftOut.length - MAX_LEFT_OUT }));
  return t(locale, 'chat.totals.partial_items', { items: items.join(', ') });
}

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
    lines.push(leftOutSentence(turn.locale, conversion.left_out, names, options));
  }
  return lines.length > 0 ? ['', ...lines] : [];
}
