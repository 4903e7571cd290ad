import { z } from 'zod';

import { Amount, Currency, Cycle, IsoDate, Name, ShortName } from '../../../domain/schemas.ts';
import type { OpContext } from '../../../kernel/op.ts';
import { fieldError, toMinor } from '../../shared/context.ts';
import { resolveNamed } from '../../subscriptions/_lib/fields.ts';
import type { Candidate } from './analyse.ts';

const CandidateId = z.string().min(1).max(90);

/**
 * One chosen candidate: its id, or its id with the fields the person corrected before importing.
 * The fields are the schemas create_subscription's fields are built on (`subscriptionFields`,
 * without their descriptions, which the tool list already carries once), so an edit is validated
 * exactly as a subscription added by hand is, and a bad one is an issue at its place
 * (`candidates.2.amount`).
 */
export const CandidateChoice = z.union([
  CandidateId,
  z.object({
    id: CandidateId,
    name: Name.optional(),
    amount: Amount.optional(),
    currency: Currency.optional(),
    cycle: Cycle.optional(),
    first_charge_date: IsoDate.optional(),
    category: ShortName.optional(),
  }),
]);
export type CandidateChoice = z.infer<typeof CandidateChoice>;
type Edits = Exclude<CandidateChoice, string>;

/** What a new subscription from a candidate is, with the person's edits over what the statement showed. */
export interface Planned {
  name: string;
  amountMinor: number;
  currency: string;
  cycle: { unit: Candidate['view']['cycle']['unit']; every: number };
  firstCharge: string;
  categoryId: string | null;
  /** The statement's price rises, kept only while its amount and currency stand. */
  steps: Candidate['steps'];
}

export const choiceId = (choice: CandidateChoice): string =>
  typeof choice === 'string' ? choice : choice.id;

const edited = (choice: CandidateChoice): choice is Edits =>
  typeof choice !== 'string' && Object.keys(choice).some((key) => key !== 'id');

/**
 * The choices once each, with their places in the input (for the issues' paths). An id listed
 * twice counts once, as before edits existed; listed twice with an edit it is refused (which
 * edit would count?).
 */
export function distinctChoices(
  ctx: OpContext,
  choices: readonly CandidateChoice[],
): Array<{ choice: CandidateChoice; index: number }> {
  const out: Array<{ choice: CandidateChoice; index: number }> = [];
  choices.forEach((choice, index) => {
    const id = choiceId(choice);
    const first = out.find((o) => choiceId(o.choice) === id);
    if (!first) out.push({ choice, index });
    else if (edited(choice) || edited(first.choice))
      throw fieldError(ctx, `candidates.${index}`, 'importEdits.twice', { id });
  });
  return out;
}

/**
 * An edit of a candidate the household already tracks is refused: importing it only records its
 * price and charges, and the subscription itself is edited from its own card.
 */
export function refuseTrackedEdit(ctx: OpContext, choice: CandidateChoice, index: number): void {
  if (edited(choice)) throw fieldError(ctx, `candidates.${index}`, 'importEdits.tracked');
}

/**
 * The subscription a new candidate becomes: the statement's reading with the edits over it. The
 * amount is parsed in the currency it ends up in (toMinor, as create_subscription does); a
 * category given by name is found or created, as create_subscription does. A changed amount or
 * currency drops the statement's price rises, which ended at the statement's price.
 */
export async function plan(
  ctx: OpContext,
  c: Candidate,
  choice: CandidateChoice,
  index: number,
  /** A tidier name the person saw (import_candidates' `names`); an edited name wins over it. */
  shownName?: string,
): Promise<Planned> {
  const e: Partial<Edits> = typeof choice === 'string' ? {} : choice;
  const currency = e.currency ?? c.view.currency;
  const amountMinor =
    e.amount !== undefined || e.currency !== undefined
      ? toMinor(ctx, e.amount ?? c.view.amount, currency, `candidates.${index}.amount`)
      : c.amountMinor;
  const priced = amountMinor === c.amountMinor && currency === c.view.currency;
  const categoryId = await resolveNamed(
    ctx,
    'categories',
    undefined,
    e.category,
    `candidates.${index}.category`,
  );
  return {
    name: e.name ?? shownName ?? c.view.name,
    amountMinor,
    currency,
    cycle: e.cycle ?? c.view.cycle,
    firstCharge: e.first_charge_date ?? c.view.first_charge,
    categoryId: categoryId ?? null,
    steps: priced ? c.steps : [],
  };
}
