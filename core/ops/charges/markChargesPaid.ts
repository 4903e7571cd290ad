import { z } from 'zod';

import { OpError } from '../../errors/index.ts';
import { defineOp } from '../../kernel/op.ts';
import { requireSubscription } from '../shared/context.ts';
import { Amount, Charge, Currency, Id, IsoDate } from '../../domain/schemas.ts';
import { markPaid, recordedCharge } from './_lib/record.ts';

const Paid = z.object({
  subscription_id: Id,
  charge_date: IsoDate,
  amount: Amount.describe('What was actually charged.'),
  currency: Currency.optional().describe("Default: the subscription's."),
});

export const markChargesPaid = defineOp({
  name: 'mark_charges_paid',
  title: 'Mark charges paid',
  description:
    "Marks several charges paid with the amounts actually charged, such as reconcile_statement's to_mark: all or nothing, in one undo. A charge already paid or skipped is refused by name.",
  input: z.object({
    charges: z.array(Paid).min(1).max(200),
  }),
  output: z.object({ count: z.int(), items: z.array(Charge) }),
  effect: 'write',
  financial: true,
  summarize: (_input, output) => ({
    count: output.count,
    name: output.items[0]?.subscription_name ?? '',
  }),
  summaryVariant: (_input, output) => (output.count === 1 ? 'one' : null),
  async run(ctx, input) {
    const seen = new Set<string>();
    for (const c of input.charges) {
      const key = `${c.subscription_id}|${c.charge_date}`;
      if (seen.has(key))
        throw new OpError('invalid_input', 'errors.reconcile.twice', { date: c.charge_date });
      seen.add(key);
    }
    // One subscription after another in id order: requireSubscription locks each row until
    // commit (PostgreSQL), so two batches (or a batch and mark_charge_paid) never deadlock.
    const ordered = input.charges
      .map((c, index) => ({ ...c, index }))
      .sort((a, b) =>
        a.subscription_id < b.subscription_id
          ? -1
          : a.subscription_id > b.subscription_id
            ? 1
            : a.charge_date.localeCompare(b.charge_date),
      );
    const items: Charge[] = [];
    for (const c of ordered) {
      const sub = await requireSubscription(ctx, c.subscription_id);
      const recorded = await recordedCharge(ctx, sub.id, c.charge_date);
      if (recorded)
        throw new OpError('conflict', `errors.reconcile.already_${recorded.status}`, {
          name: sub.name,
          date: c.charge_date,
        });
      items.push(await markPaid(ctx, sub, c.charge_date, c, `charges.${c.index}.amount`));
    }
    return { count: items.length, items };
  },
});
