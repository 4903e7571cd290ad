import { AMOUNT_SCALE } from './types.ts';

/**
 * Amount cells as banks write them: "-15.99", "15,99", "+1.234,56", "1,234.56", "11'373.94",
 * "£1,183.23", "-$7,971.39", "(12.00)", "12.00-", "2500,00+", "26.851,95|", "EUR 9.99". Which of "," and "."
 * is the decimal mark is decided per column (see `decimalMarkOf`), because "1,234" alone could be
 * either; a cell with both marks says it itself (the last one is the decimal).
 */

export type DecimalMark = ',' | '.';

/** The cell without currency symbols, codes, spaces and stray marks, or null when it has no digits. */
function core(cell: string): { negative: boolean; digits: string } | null {
  let s = cell.trim();
  if (!/\d/.test(s)) return null;
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1);
  }
  // Letters (currency codes, "CR"/"DR" are read as a flag elsewhere), symbols and spaces go.
  s = s.replace(/[\s\u00a0\u202f]/g, '').replace(/[^\d.,'+\-−]/g, '');
  if (/^[-+−]/.test(s)) {
    negative = negative || s[0] !== '+';
    s = s.slice(1);
  } else if (/[-−+]$/.test(s)) {
    // "12.00-" and "2500,00+": the sign after the amount, as some banks print it.
    negative = s.endsWith('+') ? negative : true;
    s = s.slice(0, -1);
  }
  s = s.replace(/^\+/, '');
  if (!/^\d[\d.,']*$/.test(s)) return null;
  return { negative, digits: s };
}

/** Whether a cell reads as an amount at all (used to find amount columns). */
export function looksLikeAmount(cell: string): boolean {
  const trimmed = cell.trim();
  if (trimmed.length > 24 || /[a-z]{4,}/i.test(trimmed)) return false;
  const c = core(trimmed);
  return c !== null && /^(\d{1,3}([.,' ]\d{3})*|\d+)([.,]\d{1,4})?$/.test(c.digits);
}

/** The decimal mark of a column, from the cells whose mark is certain. */
export function decimalMarkOf(cells: readonly string[]): DecimalMark {
  let comma = 0;
  let point = 0;
  for (const cell of cells) {
    const c = core(cell);
    if (!c) continue;
    const lastComma = c.digits.lastIndexOf(',');
    const lastPoint = c.digits.lastIndexOf('.');
    if (lastComma >= 0 && lastPoint >= 0) {
      if (lastComma > lastPoint) comma += 2;
      else point += 2;
    } else if (lastComma >= 0 && !/,\d{3}$/.test(c.digits)) comma += 1;
    else if (lastPoint >= 0 && !/\.\d{3}$/.test(c.digits)) point += 1;
  }
  return comma > point ? ',' : '.';
}

/** The cell as a signed integer in ten-thousandths, or null when it is not an amount. */
const PLAIN = {
  '.': /^(-?)(\d{1,15})(?:\.(\d{1,4}))?$/,
  ',': /^(-?)(\d{1,15})(?:,(\d{1,4}))?$/,
} as const;

export function parseAmount(cell: string, mark: DecimalMark): number | null {
  // Most cells are plain ("-15.99", "23,50"): read those without the general clean-up.
  const plain = PLAIN[mark].exec(cell);
  if (plain) {
    const value = Number(plain[2]) * AMOUNT_SCALE + Number((plain[3] ?? '').padEnd(4, '0'));
    if (Number.isSafeInteger(value)) return plain[1] === '-' && value !== 0 ? -value : value;
  }
  const c = core(cell);
  if (!c) return null;
  let digits = c.digits.replace(/'/g, '');
  const lastComma = digits.lastIndexOf(',');
  const lastPoint = digits.lastIndexOf('.');
  // Both marks: the last is the decimal one whatever the column says.
  const decimal: DecimalMark =
    lastComma >= 0 && lastPoint >= 0 ? (lastComma > lastPoint ? ',' : '.') : mark;
  const thousands = decimal === ',' ? '.' : ',';
  digits = digits.split(thousands).join('');
  const parts = digits.split(decimal);
  if (parts.length > 2) return null;
  const [whole = '', longFraction = ''] = parts;
  // "-3.77000": zeros past the fourth decimal say nothing.
  const fraction =
    longFraction.length > 4 && /^0+$/.test(longFraction.slice(4))
      ? longFraction.slice(0, 4)
      : longFraction;
  if (whole === '' || !/^\d+$/.test(whole) || !/^\d*$/.test(fraction) || fraction.length > 4)
    return null;
  const value = Number(whole) * AMOUNT_SCALE + Number(fraction.padEnd(4, '0'));
  if (!Number.isSafeInteger(value)) return null;
  return c.negative && value !== 0 ? -value : value;
}

/** "15.99" from 159900, "-0.5" from -5000: the decimal text of a scaled amount, trailing zeros kept to `decimals`. */
export function formatScaled(value: number, decimals: number): string {
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  const whole = Math.floor(abs / AMOUNT_SCALE);
  const fraction = String(abs % AMOUNT_SCALE).padStart(4, '0');
  const kept = fraction.slice(0, decimals);
  return decimals > 0 ? `${sign}${whole}.${kept}` : `${sign}${whole}`;
}
