/**
 * ISO 4217 minor units. Most currencies have two; these are the exceptions (ISO 4217 list one,
 * not CLDR's display digits, which differ for a few such as IQD).
 */
const MINOR_UNIT_EXCEPTIONS: Readonly<Record<string, number>> = {
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  CLF: 4,
  UYW: 4,
};

const KNOWN = new Set<string>(Intl.supportedValuesOf('currency'));
for (const code of Object.keys(MINOR_UNIT_EXCEPTIONS)) KNOWN.add(code);

/** True for an active ISO 4217 code in upper case, such as `EUR`. */
export function isCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && KNOWN.has(code);
}

/** How many decimals an amount in this currency has: 2 for EUR, 0 for JPY, 3 for BHD. */
export function minorUnits(currency: string): number {
  return MINOR_UNIT_EXCEPTIONS[currency] ?? 2;
}
