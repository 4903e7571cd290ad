import { z } from 'zod';

import {
  Amount,
  Currency,
  Cycle,
  Id,
  IsoDate,
  Name,
  Notes,
  ShortName,
  SubscriptionStatus,
  Url,
} from '../../../domain/schemas.ts';
import { ShareInput, TagNames } from './fields.ts';

/**
 * A subscription's own date (first charge, trial end, contract end): 1970 or later, on every
 * surface. An earlier one is a year typed wrong (1900 for 2026), which would anchor a series of
 * charges a century long and show in every insight; no subscription tracked here began before.
 */
const EARLIEST = '1970-01-01';
const SubscriptionDate = IsoDate.refine((v) => v >= EARLIEST, {
  params: { i18n: 'errors.input.date_too_early' },
});

/** The editable fields of a subscription, shared by create (required ones required) and update (all optional). */
export const subscriptionFields = {
  name: Name,
  vendor: z
    .string()
    .trim()
    .max(120)
    .nullable()
    .optional()
    .describe('Who charges it, if different from the name.'),
  amount: Amount.describe('Price per cycle.'),
  currency: Currency.optional().describe("Default: the household's currency."),
  cycle: Cycle.optional().describe('Default: every 1 month.'),
  first_charge_date: SubscriptionDate.optional().describe(
    'The first charge of the series, 1970 or later; default: today.',
  ),
  status: SubscriptionStatus.exclude(['cancelled', 'paused'])
    .optional()
    .describe('Default: active.'),
  trial_ends_on: SubscriptionDate.nullable().optional().describe('When a trial turns paid.'),
  contract_ends_on: SubscriptionDate.nullable()
    .optional()
    .describe('When a minimum contract ends.'),
  notice_days: z
    .int()
    .min(0)
    .max(365)
    .nullable()
    .optional()
    .describe('Days of notice to cancel before contract_ends_on.'),
  category_id: Id.nullable().optional(),
  category: ShortName.optional().describe('By name instead of id; created when missing.'),
  payment_method_id: Id.nullable().optional(),
  payment_method: ShortName.optional().describe('By name instead of id; created when missing.'),
  tags: TagNames.optional(),
  notes: Notes.nullable().optional(),
  url: Url.nullable().optional(),
  cancel_url: Url.nullable().optional().describe('Where to cancel it.'),
  private: z.boolean().optional().describe('Only its member sees a private subscription.'),
  member_id: Id.optional().describe(
    'Whose it is; default: the caller (only the owner names another).',
  ),
  shares: z
    .array(ShareInput)
    .max(20)
    .optional()
    .describe('How members split the cost; percents add up to 100. Empty: its member pays all.'),
};
