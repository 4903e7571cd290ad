import { z } from 'zod';

import { localDate } from '../../domain/dates.ts';
import { OpError } from '../../errors/index.ts';
import { defineOp, type OpContext } from '../../kernel/op.ts';
import type { SubscriptionRow } from '../../store/repos/subscriptions.ts';
import { household, nowIso } from '../shared/context.ts';
import { resolveOwner } from '../subscriptions/_lib/fields.ts';
import { newSubscriptionRow } from '../subscriptions/_lib/newRow.ts';
import { recordPriceChange } from '../subscriptions/_lib/priceHistory.ts';
import { Id, Name } from '../../domain/schemas.ts';
import { analyseStatement, type Candidate } from './_lib/analyse.ts';
import {
  CandidateChoice,
  choiceId,
  distinctChoices,
  plan,
  type Planned,
  refuseTrackedEdit,
} from './_lib/edits.ts';
import { StatementInput } from './_lib/document.ts';
import { recordSeenCharges } from './_lib/pastCharges.ts';
import { recordStatement } from './_lib/record.ts';

const Result = z.object({
  candidate: z.string(),
  name: z.string(),
  result: z.enum(['created', 'price_changed', 'already_tracked']),
  subscription_id: Id,
});

async function create(ctx: OpContext, p: Planned, owner: string): Promise<SubscriptionRow> {
  const hh = household(ctx);
  const id = ctx.newId('sub');
  const now = nowIso(ctx);
  const first = p.steps[0]?.oldMinor ?? p.amountMinor;
  const row = newSubscriptionRow({
    id,
    household_id: hh.id,
    member_id: owner,
    name: p.name,
    amount_minor: p.amountMinor,
    currency: p.currency,
    cycle_unit: p.cycle.unit,
    cycle_every: p.cycle.every,
    first_charge_date: p.firstCharge,
    category_id: p.categoryId,
    created_at: now,
  });
  await ctx.tx.insert('subscriptions', { ...row });
  // The price history the statement shows: each rise on the day it was first charged.
  let old = first;
  for (const step of p.steps) {
    await ctx.tx.insert('price_changes', {
      id: ctx.newId('pc'),
      household_id: hh.id,
      subscription_id: id,
      effective_date: step.date,
      old_amount_minor: old,
      new_amount_minor: step.newMinor,
      currency: p.currency,
      created_at: now,
    });
    old = step.newMinor;
  }
  return row;
}

/**
 * A tracked subscription charged at another price: the new price from the first of the latest
 * charges at it, put into the price history as update_subscription does (a chain of changes).
 */
async function changePrice(ctx: OpContext, c: Candidate, tracked: SubscriptionRow): Promise<void> {
  const charges = c.detected.charges;
  let i = charges.length - 1;
  while (i > 0 && charges[i - 1]?.amount === charges[i]?.amount) i--;
  const since = charges[i]?.date ?? c.view.last_charge;
  const effective = since < tracked.first_charge_date ? tracked.first_charge_date : since;
  const amount = await recordPriceChange(ctx, tracked, c.amountMinor, effective);
  if (amount !== tracked.amount_minor)
    await ctx.tx.update('subscriptions', tracked.id, {
      amount_minor: amount,
      updated_at: nowIso(ctx),
    });
}

export const importCandidates = defineOp({
  name: 'import_candidates',
  title: 'Import subscriptions found in a statement',
  description:
    'Imports the read_statement candidates chosen by id (send the same statement again): each becomes a subscription of the caller, or a price change of one tracked at another price, with the charges the statement shows recorded as paid. All or nothing; a statement imported before is refused.',
  input: z.object({
    ...StatementInput,
    candidates: z
      .array(CandidateChoice)
      .min(1)
      .max(200)
      .describe("Candidate ids from read_statement; {id, …fields} corrects a new one's fields."),
    names: z
      .record(z.string().min(1).max(90), Name)
      .optional()
      .describe(
        "A tidier name for a new subscription than the statement's, by candidate id; a corrected name wins.",
      ),
  }),
  output: z.object({
    fingerprint: z.string(),
    created: z.int(),
    price_changed: z.int(),
    already_tracked: z.int(),
    past_charges: z
      .int()
      .describe("The statement's charges of the imported ones recorded as paid (their history)."),
    items: z.array(Result),
  }),
  effect: 'write',
  financial: true,
  summarize: (input, output) => ({
    count: output.created,
    changed: output.price_changed,
    file: input.file_name,
  }),
  async run(ctx, input) {
    const analysis = await analyseStatement(ctx, input);
    const { summary } = analysis;
    if (summary.imported_before)
      throw new OpError('conflict', 'errors.statements.imported_before', {
        // The household's day of that import, as its people saw it.
        date: localDate(new Date(summary.imported_before), household(ctx).time_zone),
      });
    const chosen = distinctChoices(ctx, input.candidates).map(({ choice, index }) => {
      const id = choiceId(choice);
      const found = analysis.candidates.find((c) => c.view.id === id);
      if (!found) throw new OpError('not_found', 'errors.statements.no_candidate', { id });
      if (found.tracked) refuseTrackedEdit(ctx, choice, index);
      return { c: found, choice, index };
    });
    // The statement's row first: a second import of it running at the same time stops here.
    await recordStatement(ctx, {
      fileName: input.file_name,
      fingerprint: summary.fingerprint,
      transactions: analysis.transactions,
      subscriptions: chosen.length,
    });
    const owner = await resolveOwner(ctx, undefined);
    const items: Array<z.infer<typeof Result>> = [];
    let pastCharges = 0;
    for (const { c, choice, index } of chosen) {
      const base = { candidate: c.view.id, name: c.view.name };
      if (!c.tracked) {
        const planned = await plan(ctx, c, choice, index, input.names?.[c.view.id]);
        const row = await create(ctx, planned, owner);
        pastCharges += await recordSeenCharges(ctx, row, c);
        items.push({ ...base, name: row.name, result: 'created', subscription_id: row.id });
      } else {
        const priced = c.view.tracked?.price_differs === true;
        if (priced) await changePrice(ctx, c, c.tracked);
        pastCharges += await recordSeenCharges(ctx, c.tracked, c);
        items.push({
          ...base,
          result: priced ? 'price_changed' : 'already_tracked',
          subscription_id: c.tracked.id,
        });
      }
    }
    const count = (r: z.infer<typeof Result>['result']) =>
      items.filter((i) => i.result === r).length;
    return {
      fingerprint: summary.fingerprint,
      created: count('created'),
      price_changed: count('price_changed'),
      already_tracked: count('already_tracked'),
      past_charges: pastCharges,
      items,
    };
  },
});
