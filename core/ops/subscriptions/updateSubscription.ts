import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import type { SubscriptionRow } from '../../store/repos/subscriptions.ts';
import { fieldError, nowIso, requireSubscription, toMinor } from '../shared/context.ts';
import { Id, IsoDate, Subscription } from '../../domain/schemas.ts';
import {
  checkDates,
  ensureTags,
  resolveNamed,
  resolveOwner,
  setShares,
  setTagLinks,
} from './_lib/fields.ts';
import { subscriptionFields } from './_lib/input.ts';
import { recordPriceChange } from './_lib/priceHistory.ts';
import { loadView } from './_lib/view.ts';

/**
 * create_subscription's fields, all optional. The descriptions that say what create does with a
 * field left out are replaced: an update keeps whatever is left out, so "default: today" would
 * mislead an agent or the assistant into thinking a missing field is reset.
 */
const changeable = z.object(subscriptionFields).partial().shape;

export const updateSubscription = defineOp({
  name: 'update_subscription',
  title: 'Change a subscription',
  description:
    'Changes fields of a subscription: fields left out stay, null clears one, tags replaces the set. A new amount is recorded as a price change from price_effective_date.',
  input: z.object({
    id: Id,
    ...changeable,
    currency: changeable.currency.describe('The currency of the price.'),
    cycle: changeable.cycle.describe('How often it is charged.'),
    first_charge_date: changeable.first_charge_date.describe('The first charge of the series.'),
    status: changeable.status.describe(
      'active or trial; pausing, resuming and cancelling have their own tools.',
    ),
    member_id: changeable.member_id.describe('Whose it is (only the owner names another).'),
    price_effective_date: IsoDate.optional().describe(
      'When a new amount takes effect; default: today.',
    ),
  }),
  output: Subscription,
  effect: 'write',
  // What is charged: the amount, its currency, the cycle, when the series runs, shares, status.
  financial: (input) =>
    input.amount !== undefined ||
    input.currency !== undefined ||
    input.cycle !== undefined ||
    input.first_charge_date !== undefined ||
    input.price_effective_date !== undefined ||
    input.status !== undefined ||
    input.trial_ends_on !== undefined ||
    input.shares !== undefined ||
    input.member_id !== undefined,
  idempotent: true,
  summarize: (_input, output) => ({ name: output.name }),
  async run(ctx, input) {
    const current = await requireSubscription(ctx, input.id);
    const currency = input.currency ?? current.currency;
    const amountMinor =
      input.amount !== undefined ? toMinor(ctx, input.amount, currency) : current.amount_minor;
    const patch: Partial<SubscriptionRow> = {
      name: input.name,
      vendor: input.vendor,
      amount_minor: amountMinor,
      currency,
      cycle_unit: input.cycle?.unit,
      cycle_every: input.cycle?.every,
      first_charge_date: input.first_charge_date,
      status: input.status,
      trial_ends_on: input.trial_ends_on,
      contract_ends_on: input.contract_ends_on,
      notice_days: input.notice_days,
      category_id: await resolveNamed(
        ctx,
        'categories',
        input.category_id,
        input.category,
        'category',
      ),
      payment_method_id: await resolveNamed(
        ctx,
        'payment_methods',
        input.payment_method_id,
        input.payment_method,
        'payment_method',
      ),
      notes: input.notes,
      url: input.url,
      cancel_url: input.cancel_url,
      private: input.private === undefined ? undefined : input.private ? 1 : 0,
      member_id:
        input.member_id === undefined
          ? undefined
          : await resolveOwner(ctx, input.member_id, current.member_id),
    };
    checkDates(ctx, { ...current, ...definedOnly(patch) });
    // A new currency restates the whole series in it (a correction, not a price change), so it
    // needs the amount in that currency; a new amount alone is a price change from its date.
    if (currency !== current.currency && input.amount === undefined) {
      throw fieldError(ctx, 'amount', 'errors.input.amount_with_currency', { currency });
    }
    if (input.amount !== undefined && currency === current.currency) {
      // The newest price stays in amount_minor: a change dated before a later one only edits history.
      patch.amount_minor = await recordPriceChange(
        ctx,
        current,
        amountMinor,
        input.price_effective_date ?? ctx.today,
      );
    }
    const changed = Object.entries(definedOnly(patch)).some(
      ([key, value]) => current[key as keyof SubscriptionRow] !== value,
    );
    if (changed)
      await ctx.tx.update('subscriptions', current.id, { ...patch, updated_at: nowIso(ctx) });
    if (input.tags) await setTagLinks(ctx, current.id, await ensureTags(ctx, input.tags));
    if (input.shares) await setShares(ctx, current.id, input.shares);
    return loadView(ctx, current.id);
  },
});

function definedOnly<T extends object>(patch: T): Partial<T> {
  return Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) as Partial<T>;
}
