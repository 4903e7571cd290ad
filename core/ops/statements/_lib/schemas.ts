import { z } from 'zod';

import { CYCLE_UNITS } from '../../../domain/cycles.ts';
import { Id } from '../../../domain/schemas.ts';

/** What read_statement says about one subscription it found. */
export const CandidateView = z.object({
  id: z.string().describe('Pass it to import_candidates to import this one.'),
  name: z.string(),
  amount: z.string().describe('The latest price, a decimal string.'),
  currency: z.string(),
  cycle: z.object({ unit: z.enum(CYCLE_UNITS), every: z.int() }),
  first_charge: z.string(),
  last_charge: z.string(),
  next_expected: z.string().describe('The next charge on or after today, if the cycle holds.'),
  charges: z.int().describe('Charges seen in the statement.'),
  confidence: z.number().min(0).max(1),
  why: z.string().describe("Why it looks like a subscription, in the reader's language."),
  cycle_guessed: z
    .boolean()
    .describe(
      'Not seen on a cycle (a known service or a payment the bank marks recurring, seen once or off-cycle): the cycle is its usual one, a guess to check before importing; `why` says so.',
    ),
  price_changes: z
    .array(z.object({ date: z.string(), old_amount: z.string(), new_amount: z.string() }))
    .describe('Price rises seen in the statement.'),
  tracked: z
    .object({
      subscription_id: Id,
      name: z.string(),
      amount: z.string(),
      price_differs: z
        .boolean()
        .describe(
          'The statement charges another price on the same cycle: importing it records a price change.',
        ),
    })
    .nullable()
    .describe('The household already tracks it.'),
  preselected: z
    .boolean()
    .describe(
      'Whether a review starts with it chosen: new ones, and a price seen twice or more for a tracked subscription of the same name; any other change waits for the person.',
    ),
});
export type CandidateView = z.infer<typeof CandidateView>;

export const StatementSummary = z.object({
  fingerprint: z.string().describe("SHA-256 of the statement's transactions."),
  format: z
    .enum(['csv', 'ofx', 'pdf', 'text', 'image'])
    .describe('image: read by OCR from a photo, screenshot or scanned PDF; check its figures.'),
  imported_before: z.string().nullable().describe('When it was imported before, or null.'),
  transactions: z.object({
    count: z.int(),
    first_date: z.string().nullable(),
    last_date: z.string().nullable(),
    currency: z.string(),
    money_out: z.string(),
    money_in: z.string(),
    sum: z
      .string()
      .describe('money_in minus money_out, in the statement currency (other currencies left out).'),
  }),
  skipped: z
    .object({ pending: z.int(), balance: z.int(), unreadable: z.int() })
    .describe('Lines left out: not booked yet, balances, unreadable.'),
  candidates: z.array(CandidateView),
  absent: z
    .array(
      z.object({
        subscription_id: Id,
        name: z.string(),
        amount: z.string(),
        currency: z.string(),
        expected_on: z.array(z.string()),
      }),
    )
    .describe(
      'Tracked subscriptions it could have charged (its cards, accounts, currencies), due in its period but not on it.',
    ),
});
export type StatementSummary = z.infer<typeof StatementSummary>;
