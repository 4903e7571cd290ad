import { z } from 'zod';

/** A rate as people type it: a positive decimal string, such as "1.0939". */
export const RATE_PATTERN = /^\d{1,9}(\.\d{1,10})?$/;

/** One translated message for any bad rate, whether malformed or zero. */
export const RateText = z
  .string()
  .trim()
  .refine((v) => RATE_PATTERN.test(v) && Number(v) > 0, {
    params: { i18n: 'errors.input.fx_rate' },
  });

/** A stored per-euro rate as text, exactly as far as a double carries it ("1.0939"). */
export function perEurText(value: number): string {
  return String(Number(value.toPrecision(12)));
}
