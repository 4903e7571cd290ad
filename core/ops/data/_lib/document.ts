import { z } from 'zod';

import { CYCLE_UNITS } from '../../../domain/cycles.ts';
import { PAYMENT_KINDS } from '../../organize/_lib/fields.ts';
import { Currency, IsoDate, Member, Share, ShortName, SubscriptionStatus } from '../../../domain/schemas.ts';

/** The version tag of Exhale's own export. A reader refuses tags it doesn't know. */
export const EXHALE_FORMAT = 'exhale/1';

const i18n = (key: string) => ({ params: { i18n: key } });

// === The document export_data writes

const DocSubscription = z.object({
  id: z.string(),
  member_id: z.string(),
  name: z.string(),
  vendor: z.string().nullable(),
  amount: z.string(),
  currency: z.string(),
  cycle: z.object({ unit: z.enum(CYCLE_UNITS), every: z.int() }),
  first_charge_date: z.string(),
  status: SubscriptionStatus,
  trial_ends_on: z.string().nullable(),
  paused_on: z.string().nullable(),
  cancelled_on: z.string().nullable(),
  contract_ends_on: z.string().nullable(),
  notice_days: z.int().nullable(),
  category: z.string().nullable().describe('Category name.'),
  payment_method: z.string().nullable().describe('Payment method name.'),
  tags: z.array(z.string()).describe('Tag names.'),
  notes: z.string().nullable(),
  url: z.string().nullable(),
  cancel_url: z.string().nullable(),
  private: z.boolean(),
  shares: z.array(Share),
  charges: z
    .array(
      z.object({
        due_date: z.string(),
        status: z.enum(['paid', 'skipped']),
        amount: z.string().nullable(),
        currency: z.string(),
        note: z.string().nullable(),
        recorded_at: z.string(),
      }),
    )
    .describe('Recorded (paid or skipped) charges; expected ones follow from the cycle.'),
  price_changes: z.array(
    z.object({
      effective_date: z.string(),
      old_amount: z.string(),
      new_amount: z.string(),
      currency: z.string(),
      created_at: z.string(),
    }),
  ),
  created_at: z.string(),
  updated_at: z.string(),
});

export const ExhaleDocument = z.object({
  format: z.literal(EXHALE_FORMAT),
  exported_at: z.string(),
  exported_by: z.string().nullable().describe('The member who exported it (null: the system).'),
  household: z.object({ name: z.string(), currency: z.string(), time_zone: z.string(), locale: z.string() }),
  members: z.array(Member),
  categories: z.array(z.object({ name: z.string(), color: z.string().nullable() })),
  payment_methods: z.array(z.object({ name: z.string(), kind: z.string(), last4: z.string().nullable() })),
  tags: z.array(z.object({ name: z.string() })),
  subscriptions: z.array(DocSubscription),
  exchange_rates: z
    .array(z.object({ currency: z.string(), date: z.string(), per_eur: z.string() }))
    .describe('Rates the household set by hand: units of the currency per euro.'),
});
export type ExhaleDocument = z.infer<typeof ExhaleDocument>;
export type DocSubscription = z.infer<typeof DocSubscription>;

// === What import_data reads of it (subscriptions are checked one by one, see importItem.ts)

export const ImportEnvelope = z.object({
  format: z.literal(EXHALE_FORMAT),
  exported_by: z.string().nullable().optional(),
  categories: z
    .array(
      z.object({
        name: ShortName,
        color: z
          .string()
          .refine((v) => /^#[0-9a-fA-F]{6}$/.test(v), i18n('data.import.color'))
          .transform((v) => v.toUpperCase())
          .nullable()
          .optional(),
      }),
    )
    .max(1000)
    .default([]),
  payment_methods: z
    .array(
      z.object({
        name: ShortName,
        kind: z.enum(PAYMENT_KINDS).catch('other').default('other'),
        last4: z
          .string()
          .refine((v) => /^\d{4}$/.test(v), i18n('data.import.last4'))
          .nullable()
          .optional(),
      }),
    )
    .max(1000)
    .default([]),
  tags: z.array(z.object({ name: ShortName })).max(1000).default([]),
  subscriptions: z.array(z.unknown()).max(10_000),
  exchange_rates: z
    .array(
      z.object({
        currency: Currency,
        date: IsoDate,
        per_eur: z.string().refine((v) => /^\d{1,9}(\.\d{1,12})?$/.test(v) && Number(v) > 0, i18n('data.import.rate')),
      }),
    )
    .max(10_000)
    .default([]),
});
export type ImportEnvelope = z.infer<typeof ImportEnvelope>;
