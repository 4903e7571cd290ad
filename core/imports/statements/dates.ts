import { daysBetween, isValidDate } from '../../domain/dates.ts';

/**
 * Date cells as banks write them: ISO "2018-03-01" (with a time after it or not), "2019.04.19.",
 * "2012:03:01", "20190311", "18.09.2017", "22.02.18", "28/02/2018" or "3/18/2016" (day or month
 * first, decided from the whole column: see `dateOrderOf`), "28-Mar-2020", "27 Feb 2018",
 * "10 Feb 18", "17 maart 2025", "1er janvier 2024"... Two-digit years are 20YY (statements from the
 * last century are not what people send).
 */

export type DateOrder = 'dmy' | 'mdy';

/** Month names and abbreviations in the languages Exhale reads headers in, accents folded. */
const MONTHS: ReadonlyArray<readonly string[]> = [
  [
    'jan',
    'january',
    'enero',
    'ene',
    'januar',
    'janvier',
    'janv',
    'januari',
    'gennaio',
    'gen',
    'janeiro',
    'styczen',
    'sty',
    'leden',
    'januar',
    'tammikuu',
  ],
  [
    'feb',
    'february',
    'febrero',
    'februar',
    'fevrier',
    'fevr',
    'fev',
    'februari',
    'febbraio',
    'fevereiro',
    'fev',
    'luty',
    'lut',
    'unor',
    'februar',
    'helmikuu',
  ],
  [
    'mar',
    'march',
    'marzo',
    'marz',
    'maerz',
    'mars',
    'maart',
    'mrt',
    'marco',
    'marzec',
    'brezen',
    'marcius',
    'maaliskuu',
  ],
  [
    'apr',
    'april',
    'abril',
    'abr',
    'avril',
    'avr',
    'aprile',
    'kwiecien',
    'kwi',
    'duben',
    'aprilis',
    'huhtikuu',
  ],
  ['may', 'mayo', 'mai', 'mei', 'maggio', 'mag', 'maio', 'maj', 'kveten', 'majus', 'toukokuu'],
  [
    'jun',
    'june',
    'junio',
    'juni',
    'juin',
    'giugno',
    'giu',
    'junho',
    'czerwiec',
    'cze',
    'cerven',
    'junius',
    'kesakuu',
  ],
  [
    'jul',
    'july',
    'julio',
    'juli',
    'juillet',
    'juil',
    'luglio',
    'lug',
    'julho',
    'lipiec',
    'lip',
    'cervenec',
    'julius',
    'heinakuu',
  ],
  [
    'aug',
    'august',
    'agosto',
    'ago',
    'aout',
    'augustus',
    'sierpien',
    'sie',
    'srpen',
    'augusztus',
    'elokuu',
  ],
  [
    'sep',
    'sept',
    'september',
    'septiembre',
    'septembre',
    'settembre',
    'set',
    'setembro',
    'wrzesien',
    'wrz',
    'zari',
    'szeptember',
    'syyskuu',
  ],
  [
    'oct',
    'october',
    'octubre',
    'oktober',
    'okt',
    'octobre',
    'ottobre',
    'ott',
    'outubro',
    'out',
    'pazdziernik',
    'paz',
    'rijen',
    'oktober',
    'lokakuu',
  ],
  ['nov', 'november', 'noviembre', 'novembre', 'novembro', 'listopad', 'lis', 'marraskuu'],
  [
    'dec',
    'december',
    'diciembre',
    'dic',
    'dezember',
    'dez',
    'decembre',
    'dicembre',
    'dezembro',
    'grudzien',
    'gru',
    'prosinec',
    'joulukuu',
  ],
];
const MONTH_BY_NAME = new Map<string, number>();
MONTHS.forEach((names, i) => names.forEach((n) => MONTH_BY_NAME.set(n, i + 1)));

export function fold(text: string): string {
  // Plain ASCII has no accents: skip the (costly) decomposition.
  if (!/[\u0080-\uffff]/.test(text)) return text.toLowerCase();
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

function iso(y: number, m: number, d: number): string | null {
  const year = y < 100 ? 2000 + y : y;
  const out = `${String(year).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  return year >= 1990 && year <= 2100 && isValidDate(out) ? out : null;
}

const YMD = /^(\d{4})[-/.:](\d{1,2})[-/.:](\d{1,2})\.?(?:$|[ T])/;
const COMPACT = /^(\d{4})(\d{2})(\d{2})(?:$|[ T]|\d{6})/;
const NUMERIC = /^(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})\.?(?:$|[ T,])/;
const NAMED = /^(\d{1,2})(?:er|\.)?[\s-]+([\p{L}]{3,12})\.?[\s-]+(\d{4}|\d{2})(?:$|[\s,])/u;
const NAMED_MONTH_FIRST = /^([\p{L}]{3,12})\.?\s+(\d{1,2}),?\s+(\d{4})(?:$|[\s,])/u;

/** The two leading numbers of a D/M/Y or M/D/Y cell, for deciding the column's order. */
export function numericParts(cell: string): [number, number] | null {
  const m = NUMERIC.exec(cell.trim());
  return m ? [Number(m[1]), Number(m[3])] : null;
}

/**
 * The order of a column's numeric dates: a first number above 12 means day first, a second above
 * 12 means month first. When no cell decides, the order under which the rows are in date order
 * (statements are sorted) wins, and day first when that does not decide either.
 */
export function dateOrderOf(cells: readonly string[]): DateOrder {
  let dmy = 0;
  let mdy = 0;
  for (const cell of cells) {
    const parts = numericParts(cell);
    if (!parts) continue;
    if (parts[0] > 12) dmy++;
    if (parts[1] > 12) mdy++;
  }
  if (dmy !== mdy) return dmy > mdy ? 'dmy' : 'mdy';
  const breaks = (order: DateOrder): number => {
    const dates = cells.map((c) => parseDate(c, order)).filter((d): d is string => d !== null);
    let up = 0;
    let down = 0;
    for (let i = 1; i < dates.length; i++) {
      const a = dates[i - 1] ?? '';
      const b = dates[i] ?? '';
      if (b > a) up++;
      else if (b < a) down++;
    }
    return Math.min(up, down);
  };
  const mdyBreaks = breaks('mdy');
  const dmyBreaks = breaks('dmy');
  if (mdyBreaks !== dmyBreaks) return mdyBreaks < dmyBreaks ? 'mdy' : 'dmy';
  // Still tied ("01/02", "01/05", "01/06": the 2nd to the 6th of January, or five months'
  // firsts): a statement covers weeks, so the order that keeps its dates closest together.
  const span = (order: DateOrder): number => {
    const dates = cells
      .map((c) => parseDate(c, order))
      .filter((d): d is string => d !== null)
      .sort();
    const first = dates[0];
    const last = dates.at(-1);
    return first && last ? daysBetween(first, last) : 0;
  };
  return span('mdy') < span('dmy') ? 'mdy' : 'dmy';
}

/** The cell as YYYY-MM-DD, or null when it is no date. */
export function parseDate(cell: string, order: DateOrder = 'dmy'): string | null {
  const s = cell.trim();
  if (s.length < 6 || s.length > 40) return null;
  let m = YMD.exec(s);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = COMPACT.exec(s);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = NUMERIC.exec(s);
  if (m) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    const y = Number(m[4]);
    // Dots are day first everywhere; slashes and dashes follow the column's order.
    return m[2] === '.' || order === 'dmy' ? iso(y, b, a) : iso(y, a, b);
  }
  m = NAMED.exec(s);
  if (m) {
    const month = MONTH_BY_NAME.get(fold(m[2] ?? ''));
    return month ? iso(Number(m[3]), month, Number(m[1])) : null;
  }
  m = NAMED_MONTH_FIRST.exec(s);
  if (m) {
    const month = MONTH_BY_NAME.get(fold(m[1] ?? ''));
    return month ? iso(Number(m[3]), month, Number(m[2])) : null;
  }
  return null;
}

/** A month name ("maart", "Feb") as 1–12, for line readers that meet "17 maart" without a year. */
export function monthOfName(name: string): number | null {
  return MONTH_BY_NAME.get(fold(name).replace(/\.$/, '')) ?? null;
}
