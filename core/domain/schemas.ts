import { z } from 'zod';

import { isCurrency } from './currencies.ts';
import { CYCLE_UNITS } from './cycles.ts';
import { isTimeZone, isValidDate } from './dates.ts';
import { LOCALES } from '../i18n/index.ts';

// === Building blocks shared by op inputs and outputs

/** Custom checks carry a text key in `params.i18n`; the kernel's error map renders it. */
const i18n = (key: string) => ({ params: { i18n: key } });

export const AMOUNT_PATTERN = /^\d{1,13}(\.\d{1,4})?$/;

export const Id = z.string().min(1).max(90);

export const Amount = z
  .string()
  .regex(AMOUNT_PATTERN)
  .describe(
    'A non-negative decimal string in the currency\'s units, such as "15.99" (never a number).',
  );

export const Currency = z
  .string()
  .trim()
  .toUpperCase()
  .refine((v) => isCurrency(v), i18n('errors.input.currency'))
  .describe('ISO 4217 code in upper case, such as "EUR".');

/** `format: date` (RFC 3339 full-date, YYYY-MM-DD) in its JSON Schema, kept by every copy of it. */
export const IsoDate = z
  .string()
  .refine((v) => isValidDate(v), i18n('errors.input.date'))
  .meta({ format: 'date' })
  .describe("A calendar date YYYY-MM-DD in the household's time zone.");

export const TimeZone = z
  .string()
  .refine((v) => isTimeZone(v), i18n('errors.input.time_zone'))
  .describe('An IANA time zone such as "Europe/Madrid".');

export const Language = z.enum(LOCALES).describe('The language Exhale speaks to this person in.');

/**
 * A name is one line of text: no line breaks or other control characters, which could make a name
 * shown on a card look like Exhale's own lines.
 */
const ONE_LINE = /^[^\p{Cc}\u2028\u2029]*$/u;
export const Name = z
  .string()
  .trim()
  .min(1)
  .max(120)
  .refine((v) => ONE_LINE.test(v), i18n('errors.input.one_line'));
export const ShortName = z
  .string()
  .trim()
  .min(1)
  .max(80)
  .refine((v) => ONE_LINE.test(v), i18n('errors.input.one_line'));
export const Notes = z.string().max(2000);
/** A web address: http or https only (a `javascript:` link would run code where it is shown). */
export const Url = z.url({ protocol: /^https?$/ }).max(2048);

export const Cycle = z
  .object({
    unit: z.enum(CYCLE_UNITS),
    every: z.int().min(1).max(1000).default(1),
  })
  .describe(
    "Billing cycle: every N days, weeks, months or years. Monthly and yearly keep the first charge's day of month.",
  );

export const SubscriptionStatus = z.enum(['active', 'trial', 'paused', 'cancelled']);

export const Ref = z.object({ id: z.string(), name: z.string() });

/** Paging for lists: at most 500 a page. */
export const Paging = {
  limit: z.int().min(1).max(500).default(50),
  offset: z.int().min(0).default(0),
};

// === Entities as every surface sees them

export const Household = z.object({
  id: z.string(),
  name: z.string(),
  currency: z.string(),
  time_zone: z.string(),
  locale: z.string(),
  created_at: z.string(),
});
export type Household = z.infer<typeof Household>;

/**
 * The chat platforms a member can have an account on (a `member_identities` row each). A channel
 * reaches a member through their account on its platform; the Mini App's web push will add one.
 */
export const PLATFORMS = ['telegram', 'slack'] as const;
export const Platform = z.enum(PLATFORMS);
export type Platform = z.infer<typeof Platform>;

export const Member = z.object({
  id: z.string(),
  name: z.string(),
  role: z.enum(['owner', 'member']),
  language: z.string(),
  reminder_offsets: z.array(z.int()),
  reminder_time: z.string(),
  created_at: z.string(),
});
export type Member = z.infer<typeof Member>;

export const Share = z.object({
  member_id: z.string(),
  percent: z
    .string()
    .describe('This member\'s share of the cost, "0" to "100", up to two decimals.'),
});

export const Subscription = z.object({
  id: z.string(),
  name: z.string(),
  vendor: z.string().nullable(),
  amount: z.string(),
  currency: z.string(),
  cycle: z.object({ unit: z.enum(CYCLE_UNITS), every: z.int() }),
  first_charge_date: z.string(),
  next_charge_date: z.string().nullable(),
  status: SubscriptionStatus,
  trial_ends_on: z.string().nullable(),
  paused_on: z.string().nullable(),
  cancelled_on: z.string().nullable(),
  contract_ends_on: z.string().nullable(),
  notice_days: z.int().nullable(),
  category: Ref.nullable(),
  payment_method: Ref.nullable(),
  tags: z.array(Ref),
  notes: z.string().nullable(),
  url: z.string().nullable(),
  cancel_url: z.string().nullable(),
  private: z.boolean(),
  member_id: z.string(),
  shares: z.array(Share),
  monthly_cost: z.string().describe("Average cost per month in the subscription's currency."),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Subscription = z.infer<typeof Subscription>;

export const Category = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string().nullable(),
  subscription_count: z.int(),
});

export const PaymentMethod = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.string(),
  last4: z.string().nullable(),
  subscription_count: z.int(),
});

export const Tag = z.object({ id: z.string(), name: z.string(), subscription_count: z.int() });

export const Charge = z.object({
  id: z.string().nullable().describe('Null for an expected charge not yet recorded.'),
  subscription_id: z.string(),
  subscription_name: z.string(),
  due_date: z.string(),
  status: z.enum(['expected', 'paid', 'skipped']),
  amount: z
    .string()
    .describe('Expected: the price that day; paid: what was charged; skipped: what was not taken.'),
  currency: z.string(),
});
export type Charge = z.infer<typeof Charge>;

/** Conversion facts attached to any total: which rates served and what was left out. */
export const Conversion = z.object({
  rates: z.array(
    z.object({
      currency: z.string(),
      rate: z.string(),
      date: z.string(),
      source: z.enum(['ecb', 'manual']),
      stale: z.boolean(),
    }),
  ),
  partial: z.boolean(),
  left_out: z.array(
    z.object({ subscription_id: z.string(), amount: z.string(), currency: z.string() }),
  ),
});
export type Conversion = z.infer<typeof Conversion>;
