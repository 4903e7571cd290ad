/**
 * A price split by shares in percent, in the currency's minor units, so the parts add up to the
 * price exactly (17.99 at 50/50 is 9.00 and 8.99, never 9.00 twice): each part rounded down, then
 * the cents left over go one each to the parts that lost the most by rounding (the first of equals).
 * Amounts are decimal strings ("17.99"), as the ops send them.
 */
export function splitByShares(amount: string, currency: string, percents: string[]): string[] {
  const digits = minorDigits(currency);
  const scale = 10 ** digits;
  const total = Math.round(Number(amount) * scale);
  // Percents have at most 2 decimals: in hundredths of a percent they are whole numbers.
  const weights = percents.map((p) => Math.round(Number(p) * 100));
  const exact = weights.map((w) => (total * w) / 10_000);
  const parts = exact.map((x) => Math.floor(x));
  let left = Math.round((total * weights.reduce((a, b) => a + b, 0)) / 10_000) - sum(parts);
  const order = exact
    .map((x, i) => ({ i, lost: x - Math.floor(x) }))
    .sort((a, b) => b.lost - a.lost || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i] = (parts[i] ?? 0) + 1;
    left -= 1;
  }
  return parts.map((minor) => (minor / scale).toFixed(digits));
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** Digits after the decimal point of a currency's amounts (2 for EUR, 0 for JPY). */
function minorDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
}
