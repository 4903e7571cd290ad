import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import type { SubscriptionRow } from '../../store/repos/subscriptions.ts';
import { household, nowIso, toMinor } from '../shared/context.ts';
import { Subscription } from '../../domain/schemas.ts';
import {
  checkDates,
  ensureTags,
  resolveNamed,
  resolveOwner,
  setShares,
  setTagLinks,
} from './_lib/fields.ts';
import { subscriptionFields } from './_lib/input.ts';
import { loadView } from './_lib/view.ts';

export const createSubscription = defineOp({
  name: 'create_subscription',
  title: 'Add a subscription',
  description:
    'Adds a subscription to track. Categories, payment methods and tags given by name are created when missing.',
  input: z.object(subscriptionFields),
  output: Subscription,
  effect: 'write',
  financial: false,
  summarize: (input) => ({ name: input.name }),
  async run(ctx, input) {
    const hh = household(ctx);
    const currency = input.currency ?? hh.currency;
    const id = ctx.newId('sub');
    const now = nowIso(ctx);
    const row: SubscriptionRow = {
      id,
      household_id: hh.id,
      member_id: await resolveOwner(ctx, input.member_id),
      name: input.name,
      vendor: input.vendor ?? null,
      amount_minor: toMinor(ctx, input.amount, currency),
      currency,
      cycle_unit: input.cycle?.unit ?? 'month',
      cycle_every: input.cycle?.every ?? 1,
      first_charge_date: input.first_charge_date ?? ctx.today,
      status: input.status ?? 'active',
      trial_ends_on: input.trial_ends_on ?? null,
      paused_on: null,
      cancelled_on: null,
      contract_ends_on: input.contract_ends_on ?? null,
      notice_days: input.notice_days ?? null,
      category_id:
        (await resolveNamed(ctx, 'categories', input.category_id, input.category, 'category')) ??
        null,
      payment_method_id:
        (await resolveNamed(
          ctx,
          'payment_methods',
          input.payment_method_id,
          input.payment_method,
          'payment_method',
        )) ?? null,
      notes: input.notes ?? null,
      url: input.url ?? null,
      cancel_url: input.cancel_url ?? null,
      private: input.private ? 1 : 0,
      created_at: now,
      updated_at: now,
    };
    checkDates(ctx, row);
    await ctx.tx.insert('subscriptions', { ...row });
    if (input.tags) await setTagLinks(ctx, id, await ensureTags(ctx, input.tags));
    if (input.shares) await setShares(ctx, id, input.shares);
    return loadView(ctx, id);
  },
});
