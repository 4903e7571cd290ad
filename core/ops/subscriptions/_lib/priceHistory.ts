import { priceOn } from '../../../domain/charges.ts';
import { addDays } from '../../../domain/dates.ts';
import type { OpContext } from '../../../kernel/op.ts';
import { priceChangesBySubscription } from '../../../store/repos/charges.ts';
import type { SubscriptionRow } from '../../../store/repos/subscriptions.ts';
import { household, nowIso } from '../../shared/context.ts';

/**
 * Puts a price into the subscription's history from `date` on, keeping the history a chain: the
 * change's old price is the one in effect the day before, a later change now starts from the new
 * price, and a change already on that date is replaced. Returns the newest price (amount_minor).
 */
export async function recordPriceChange(
  ctx: OpContext,
  sub: SubscriptionRow,
  price: number,
  date: string,
): Promise<number> {
  const history = (await priceChangesBySubscription(ctx.tx.trx, [sub.id])).get(sub.id) ?? [];
  const before = priceOn(addDays(date, -1), sub.amount_minor, history);
  const sameDay = history.find((c) => c.effective_date === date);
  const later = history.find((c) => c.effective_date > date);
  if (sameDay) {
    if (sameDay.old_amount_minor === price) await ctx.tx.remove('price_changes', sameDay.id);
    else await ctx.tx.update('price_changes', sameDay.id, { new_amount_minor: price });
  } else if (price !== before) {
    await ctx.tx.insert('price_changes', {
      id: ctx.newId('pc'),
      household_id: household(ctx).id,
      subscription_id: sub.id,
      effective_date: date,
      old_amount_minor: before,
      new_amount_minor: price,
      currency: sub.currency,
      created_at: nowIso(ctx),
    });
  }
  if (later && later.old_amount_minor !== price)
    await ctx.tx.update('price_changes', later.id, { old_amount_minor: price });
  return later ? sub.amount_minor : price;
}
