import { z } from 'zod';

import { isValidDate } from '../domain/dates.ts';
import type { ToolSpec } from './model.ts';

/**
 * Reading a file gets one fixed-schema tool and nothing else: the model reports what it found,
 * Exhale turns each finding into a create_subscription proposal (dry run, card, tap). Whatever a
 * file says, the model cannot call any other op while it reads it.
 */
const Found = z.strictObject({
  name: z.string().trim().min(1).max(120),
  amount: z.string().regex(/^\d{1,13}(\.\d{1,4})?$/),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
  cycle: z.enum(['day', 'week', 'month', 'year']).default('month'),
  every: z.int().min(1).max(1000).default(1),
  next_charge_date: z.string().refine(isValidDate).optional(),
});

const Report = z.strictObject({ subscriptions: z.array(Found).max(20) });

export const REPORT_SUBSCRIPTIONS: ToolSpec = {
  name: 'report_subscriptions',
  description:
    'Reports the recurring payments (subscriptions) found in the file the member sent. Give each with its name, amount as a decimal string ("9.99"), ISO currency code if shown, billing cycle (day, week, month or year; every N) and the next charge date if shown. Report an empty list when there are none.',
  parameters: {
    type: 'object',
    additionalProperties: false,
    required: ['subscriptions'],
    properties: {
      subscriptions: {
        type: 'array',
        maxItems: 20,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'amount'],
          properties: {
            name: { type: 'string' },
            amount: { type: 'string', description: 'Decimal string, such as "9.99".' },
            currency: { type: 'string', description: 'ISO 4217 code, such as "EUR".' },
            cycle: { type: 'string', enum: ['day', 'week', 'month', 'year'] },
            every: { type: 'integer', minimum: 1 },
            next_charge_date: { type: 'string', description: 'YYYY-MM-DD' },
          },
        },
      },
    },
  },
};

/** The create_subscription arguments for each reported subscription, or the problem in one line. */
export function reportedSubscriptions(
  args: Record<string, unknown>,
): { ok: true; creates: Array<Record<string, unknown>> } | { ok: false; problem: string } {
  const parsed = Report.safeParse(args);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      problem:
        `report_subscriptions: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'invalid'}`.trim(),
    };
  }
  return {
    ok: true,
    creates: parsed.data.subscriptions.map((s) => ({
      name: s.name,
      amount: s.amount,
      ...(s.currency ? { currency: s.currency } : {}),
      cycle: { unit: s.cycle, every: s.every },
      ...(s.next_charge_date ? { first_charge_date: s.next_charge_date } : {}),
    })),
  };
}
