import { minorUnits } from './currencies.ts';

/** An amount as an integer of the currency's minor units (cents), with its ISO 4217 code. */
export interface Money {
  minor: number;
  currency: string;
}

/** The largest amount stored, in minor units: a 32-bit integer column on every database. */
export const MAX_MINOR = 2_147_483_647;

/** Decimal strings at the edges: digits, an optional dot and decimals, optionally negative. */
export const DECIMAL_PATTERN = /^-?\d{1,13}(\.\d+)?$/;

export type ParseMoneyResult =
  { ok: true; minor: number } | { ok: false; reason: 'format' | 'too_many_decimals' | 'too_large' };

/**
 * Parses a decimal string into minor units without floating point: `"15.99"` EUR is 1599,
 * `"1500"` JPY is 1500. More decimals than the currency has is an error, never a rounding.
 */
export function parseAmount(text: string, currency: string): ParseMoneyResult {
  const trimmed = text.trim();
  if (!DECIMAL_PATTERN.test(trimmed)) return { ok: false, reason: 'format' };
  const negative = trimmed.startsWith('-');
  const [whole = '0', fraction = ''] = trimmed.replace('-', '').split('.');
  const digits = minorUnits(currency);
  if (fraction.replace(/0+$/, '').length > digits)
    return { ok: false, reason: 'too_many_decimals' };
  const minor = Number(whole + fraction.padEnd(digits, '0').slice(0, digits));
  if (!Number.isSafeInteger(minor) || minor > MAX_MINOR) return { ok: false, reason: 'too_large' };
  return { ok: true, minor: negative && minor !== 0 ? -minor : minor };
}

/** Formats minor units as the decimal string used at every edge: 1599 EUR is `"15.99"`. */
export function formatAmount(minor: number, currency: string): string {
  const digits = minorUnits(currency);
  const negative = minor < 0;
  const abs = Math.abs(Math.round(minor)).toString();
  if (digits === 0) return (negative ? '-' : '') + abs;
  const padded = abs.padStart(digits + 1, '0');
  const text = `${padded.slice(0, -digits)}.${padded.slice(-digits)}`;
  return negative ? `-${text}` : text;
}

/** A human rendering for chat and cards: `15.99 EUR`. */
export function displayMoney(minor: number, currency: string): string {
  return `${formatAmount(minor, currency)} ${currency}`;
}

/**
 * Converts minor units between currencies with a rate expressed as "units of `to` per unit of
 * `from`", rounding half away from zero to the target's minor units.
 */
export function convertMinor(minor: number, from: string, to: string, rate: number): number {
  const value = (minor / 10 ** minorUnits(from)) * rate * 10 ** minorUnits(to);
  return Math.sign(value) * Math.round(Math.abs(value));
}

/** ISO 4217's code for "no currency" (two decimals): percentages and amounts without a currency. */
export const NO_CURRENCY = 'XXX';

/**
 * Percentages with two decimals are kept as integer basis points (50 % = 5000), with the same
 * exact decimal parsing as money: `"33.33"` is 3333.
 */
export const parsePercent = (text: string): ParseMoneyResult => parseAmount(text, NO_CURRENCY);
export const formatPercent = (basisPoints: number): string =>
  formatAmount(basisPoints, NO_CURRENCY);
