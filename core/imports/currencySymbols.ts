import { isCurrency } from '../domain/currencies.ts';

/**
 * Symbols that name exactly one currency. Covers the symbols Wallos seeds for new users and a few
 * common variants; anything else must be an ISO code.
 */
const UNIQUE: Readonly<Record<string, string>> = {
  '€': 'EUR',
  '£': 'GBP',
  лв: 'BGN',
  Kč: 'CZK',
  Ft: 'HUF',
  zł: 'PLN',
  lei: 'RON',
  Fr: 'CHF',
  '₽': 'RUB',
  '₺': 'TRY',
  R$: 'BRL',
  HK$: 'HKD',
  Rp: 'IDR',
  '₪': 'ILS',
  '₹': 'INR',
  '₩': 'KRW',
  Mex$: 'MXN',
  RM: 'MYR',
  NZ$: 'NZD',
  '₱': 'PHP',
  S$: 'SGD',
  '฿': 'THB',
  R: 'ZAR',
  '₴': 'UAH',
  NT$: 'TWD',
  US$: 'USD',
  A$: 'AUD',
  AU$: 'AUD',
  C$: 'CAD',
  CA$: 'CAD',
  'CN¥': 'CNY',
  '₫': 'VND',
  '₦': 'NGN',
};

/** Symbols several currencies share: the file alone can't say which one is meant. */
const SHARED: Readonly<Record<string, readonly string[]>> = {
  $: ['USD', 'AUD', 'CAD', 'MXN', 'ARS', 'CLP', 'COP', 'NZD', 'SGD', 'HKD'],
  '¥': ['JPY', 'CNY'],
  kr: ['DKK', 'SEK', 'NOK', 'ISK'],
};

export type SymbolCurrency =
  | { kind: 'known'; currency: string }
  | { kind: 'shared'; candidates: readonly string[] }
  | { kind: 'none' }
  | { kind: 'unknown' };

/** What a price's currency symbol (or ISO code) says about its currency. */
export function currencyOfSymbol(symbol: string): SymbolCurrency {
  const trimmed = symbol.trim();
  if (trimmed === '') return { kind: 'none' };
  const upper = trimmed.toUpperCase();
  if (/^[A-Z]{3}$/.test(upper) && isCurrency(upper)) return { kind: 'known', currency: upper };
  const unique = UNIQUE[trimmed];
  if (unique) return { kind: 'known', currency: unique };
  const shared = SHARED[trimmed];
  if (shared) return { kind: 'shared', candidates: shared };
  return { kind: 'unknown' };
}
