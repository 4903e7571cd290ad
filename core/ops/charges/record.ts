import type { OpContext } from '../../kernel/op.ts';
import type { ChargeRow } from '../../store/repos/charges.ts';
import type { SubscriptionRow } from '../../store/repos/subscriptions.ts';
import { formatAmount } from '../../domain/money.ts';
import { nowIso } from '../shared/context.ts';
import type { Charge } from '../shared/schemas.ts';

/** Records (or re-records) the charge of a subscription on a date, replacing an earlier record. */
export async function recordCharge(
  ctx: OpContext,
  sub: SubscriptionRow,
  dueDate: string,
  status: 'paid' | 'skipped',
  amountMinor: number | null,
  currency: string,
): Promise<Charge> {
  const existing = (await ctx.tx
    .from('charges')
    .where({ subscription_id: sub.id, due_date: dueDate })
    .first()) as ChargeRow | undefined;
  const fields = { status, amount_minor: amountMinor, currency, recorded_at: nowIso(ctx) };
  const row = existing
    ? await ctx.tx.update('charges', existing.id, fields)
    : await ctx.tx.insert('charges', {
        id: ctx.newId('chg'),
        household_id: sub.household_id,
        subscription_id: sub.id,
        due_date: dueDate,
        note: null,
        ...fields,
      });
  return {
    id: String(row.id),
    subscription_id: sub.id,
    subscription_name: sub.name,
    due_date: dueDate,
    status,
    amount: formatAmount(amountMinor ?? 0, currency),
    currency,
  };
}
