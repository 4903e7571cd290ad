/**
 * The decimals the app's fields accept as people type them: digits, then a dot or a comma and
 * decimals ("12.99" and "12,99"); the app sends the dot form the ops take. The shape mirrors the
 * op's schema (an amount: `Amount`, up to 13 digits and 4 decimals; a rate: `RateText`, up to 9 and
 * 10, above 0), so a value these accept never meets the op's format sentence, which speaks of the
 * dot only: a value they refuse gets the app's own sentence (`web.ui.polish.*`), naming both.
 * Everything else (a currency's decimals, the largest amount) stays the op's to judge and say.
 */
const AMOUNT = /^\d{1,13}(?:[.,]\d{1,4})?$/;
const RATE = /^\d{1,9}(?:[.,]\d{1,10})?$/;

/** An amount field's text as the op takes it ("12,99" → "12.99"), or null when it is not one. */
export function typedAmount(text: string): string | null {
  const value = text.trim();
  return AMOUNT.test(value) ? value.replace(',', '.') : null;
}

/** An exchange rate's text as set_exchange_rate takes it, or null when it is not a rate above 0. */
export function typedRate(text: string): string | null {
  const value = text.trim();
  if (!RATE.test(value)) return null;
  const dotted = value.replace(',', '.');
  return Number(dotted) > 0 ? dotted : null;
}
