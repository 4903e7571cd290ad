import { z } from 'zod';

import { Id } from '../../../domain/schemas.ts';

/** Custom checks carry a text key in `params.i18n`; the kernel's error map renders it. */
const i18n = (key: string) => ({ params: { i18n: key } });

const COLOR_PATTERN = /^#[0-9a-fA-F]{6}$/;

/** A colour as `#RRGGBB`, stored in upper case so the same colour is always the same text. */
export const Color = z
  .string()
  .refine((v) => COLOR_PATTERN.test(v), i18n('errors.organize.color'))
  .transform((v) => v.toUpperCase())
  .describe('A colour written #RRGGBB, such as "#FF8800".');

export const PAYMENT_KINDS = ['card', 'bank', 'paypal', 'cash', 'other'] as const;
export const PaymentKind = z.enum(PAYMENT_KINDS);

export const Last4 = z
  .string()
  .refine((v) => /^\d{4}$/.test(v), i18n('errors.organize.last4'))
  .describe('The last four digits of a card or account, such as "4242".');

/** Where the subscriptions of a deleted category or payment method go: another one, or none. */
export const ReassignTo = Id.nullable()
  .optional()
  .describe("Where its subscriptions go: another one's id, or null (the default) for none.");
