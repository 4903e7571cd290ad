/** Statement texts for the statements ops' tests: a small bank CSV built from rows. */
export function csv(rows: Array<[date: string, text: string, amount: string]>): string {
  return [
    'Date,Description,Amount',
    ...rows.map(([d, text, amount]) => `${d},"${text}",${amount}`),
  ].join('\n');
}

/** Four months of a household's card: Netflix (price rise), Spotify, a gym, and noise. */
export const FOUR_MONTHS_ROWS: Array<[date: string, text: string, amount: string]> = [
  ['2025-11-03', 'NETFLIX.COM 866-579-7172', '-15.99'],
  ['2025-11-05', 'PAYPAL *SPOTIFY 35314369001', '-10.99'],
  ['2025-11-07', 'LIDL DANKT 0391', '-23.50'],
  ['2025-11-15', 'SQ *IRON GYM 4401 London', '-30.00'],
  ['2025-12-03', 'NETFLIX.COM 866-579-7172', '-15.99'],
  ['2025-12-05', 'PAYPAL *SPOTIFY 35314369002', '-10.99'],
  ['2025-12-15', 'SQ *IRON GYM 4402 London', '-30.00'],
  ['2025-12-18', 'IKEA 1234', '-149.00'],
  ['2026-01-05', 'NETFLIX.COM 866-579-7172', '-17.99'],
  ['2026-01-05', 'PAYPAL *SPOTIFY 35314369003', '-10.99'],
  ['2026-01-15', 'SQ *IRON GYM 4403 London', '-30.00'],
  ['2026-01-27', 'ACME GMBH GEHALT', '2500.00'],
  ['2026-02-03', 'NETFLIX.COM 866-579-7172', '-17.99'],
  ['2026-02-05', 'PAYPAL *SPOTIFY 35314369004', '-10.99'],
  ['2026-02-16', 'SQ *IRON GYM 4404 London', '-30.00'],
];
export const FOUR_MONTHS = csv(FOUR_MONTHS_ROWS);

/**
 * The same four months as the lines of a printed statement, for a picture of it: money in is
 * written with a plus sign, as on paper (an unsigned amount on a statement is money out).
 */
export const FOUR_MONTHS_LINES = [
  'CARD STATEMENT',
  ...FOUR_MONTHS_ROWS.map(
    ([date, text, amount]) => `${date}  ${text}  ${amount.startsWith('-') ? amount : `+${amount}`}`,
  ),
];
