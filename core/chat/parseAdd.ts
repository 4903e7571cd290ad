import { isCurrency, minorUnits } from '../domain/currencies.ts';
import { addDays, daysInMonth, fromParts, isValidDate, parts } from '../domain/dates.ts';
import type { AddDraft } from './actions.ts';

type CycleUnit = NonNullable<AddDraft['cycle']>;

/** A cycle as one word says it: "monthly", "quarterly" (every 3 months), "quincenal"… */
interface CycleWord {
  unit: CycleUnit;
  every: number;
}

const each = (unit: CycleUnit, every = 1): CycleWord => ({ unit, every });

/** Cycle words in English and Spanish. */
const CYCLE_WORDS: Record<string, CycleWord> = {
  daily: each('day'),
  day: each('day'),
  diario: each('day'),
  diaria: each('day'),
  weekly: each('week'),
  week: each('week'),
  semanal: each('week'),
  semana: each('week'),
  biweekly: each('week', 2),
  fortnightly: each('week', 2),
  quincenal: each('week', 2),
  monthly: each('month'),
  month: each('month'),
  mo: each('month'),
  mensual: each('month'),
  mes: each('month'),
  bimonthly: each('month', 2),
  bimestral: each('month', 2),
  quarterly: each('month', 3),
  trimestral: each('month', 3),
  'half-yearly': each('month', 6),
  semiannual: each('month', 6),
  semiannually: each('month', 6),
  semestral: each('month', 6),
  yearly: each('year'),
  year: each('year'),
  annual: each('year'),
  annually: each('year'),
  yr: each('year'),
  anual: each('year'),
  año: each('year'),
};

/** Units after "every N" / "cada N". */
const UNIT_WORDS: Record<string, CycleUnit> = {
  day: 'day',
  days: 'day',
  día: 'day',
  dia: 'day',
  días: 'day',
  dias: 'day',
  week: 'week',
  weeks: 'week',
  semana: 'week',
  semanas: 'week',
  month: 'month',
  months: 'month',
  mes: 'month',
  meses: 'month',
  year: 'year',
  years: 'year',
  año: 'year',
  años: 'year',
  ano: 'year',
  anos: 'year',
};

const EVERY_WORDS = new Set(['every', 'cada']);

/** Month names, English and Spanish, full and short. */
const MONTHS: Record<string, number> = Object.fromEntries(
  [
    ['jan', 'january', 'ene', 'enero'],
    ['feb', 'february', 'febrero'],
    ['mar', 'march', 'marzo'],
    ['apr', 'april', 'abr', 'abril'],
    ['may', 'mayo'],
    ['jun', 'june', 'junio'],
    ['jul', 'july', 'julio'],
    ['aug', 'august', 'ago', 'agosto'],
    ['sep', 'sept', 'september', 'septiembre', 'setiembre'],
    ['oct', 'october', 'octubre'],
    ['nov', 'november', 'noviembre'],
    ['dec', 'december', 'dic', 'diciembre'],
  ].flatMap((names, i) => names.map((name) => [name, i + 1] as const)),
);

/** Words that say when without saying anything else: "starting 2026-12-15", "desde el 5". */
const START_WORDS = new Set(['starting', 'from', 'since', 'desde', 'empezando', 'starts']);

/** Words that may stand before a day of the month: "on the 5th", "el día 5". */
const DAY_FILLERS = new Set(['on', 'the', 'day', 'el', 'día', 'dia', 'los']);

const SYMBOLS: Record<string, string> = {
  '€': 'EUR',
  $: 'USD',
  US$: 'USD',
  '£': 'GBP',
  '¥': 'JPY',
  '₹': 'INR',
  R$: 'BRL',
  '₩': 'KRW',
  '₺': 'TRY',
  '₽': 'RUB',
  zł: 'PLN',
};

/** Currencies written "$": a bare "$" is the household's own when it is one of them, else USD. */
const DOLLARS = new Set([
  'USD',
  'CAD',
  'AUD',
  'NZD',
  'MXN',
  'ARS',
  'CLP',
  'COP',
  'UYU',
  'SGD',
  'HKD',
  'TWD',
  'DOP',
  'CUP',
  'BSD',
  'BBD',
  'BZD',
  'JMD',
  'TTD',
  'XCD',
  'FJD',
  'NAD',
  'LRD',
  'GYD',
  'SRD',
  'BND',
]);
/** Currencies written "¥": JPY unless the household counts in yuan. */
const YENS = new Set(['JPY', 'CNY']);

/** Words that say "per" before a unit: "per month", "por mes", "al mes", "a year". */
const PER_WORDS = new Set(['per', 'por', 'al', 'a', 'each', 'every', 'cada']);

/** A plain amount (sign allowed, so a negative one is refused clearly): 15, 15.99, 15,99. */
const PLAIN = /^(-?\d{1,20})(?:[.,](\d{1,4}))?$/;
/** With thousands separators: 1,234.56, 1.234,56, 1,200 (a comma before exactly three digits), 1.234.567. */
const GROUPED_POINT = /^([1-9]\d{0,2}(?:,\d{3})+)(?:\.(\d{1,4}))?$/;
const GROUPED_COMMA = /^([1-9]\d{0,2}(?:\.\d{3})+),(\d{1,4})$/;
const GROUPED_DOTS = /^([1-9]\d{0,2}(?:\.\d{3}){2,})()$/;
/**
 * "1.200" or "1,200": a thousand and two hundred, or a typo for 1.20? Read as thousands (unless the
 * currency has three decimals: 1.200 KWD), but never added without a preview.
 */
const ONE_GROUP = /^[1-9]\d{0,2}[.,]\d{3}$/;

/** Day of the month as people write it: 5, 5th, 1st, 5º. */
const DAY = /^(\d{1,2})(?:st|nd|rd|th|º|°|o)?$/i;

export interface ParsedAdd {
  name: string | null;
  amount: string | null;
  currency: string | null;
  cycle: CycleUnit | null;
  /** The amount could be read two ways ("1.200"): show it before adding. */
  unsure: boolean;
  /** How many units the cycle spans (quarterly: 3 months); 1 unless the line says otherwise. */
  every: number;
  /** First charge date, from a day of month or a full date. */
  date: string | null;
  /** Words after the amount that were not understood. */
  unknown: string[];
}

/**
 * The currency of a symbol ("€", "US$") or of a code written against the number ("15EUR"), or
 * null. "$" and "¥" stand for several currencies: the household's own when it is one of them.
 */
function symbolCurrency(token: string, local?: string): string | null {
  if (local && ((token === '$' && DOLLARS.has(local)) || (token === '¥' && YENS.has(local))))
    return local;
  if (SYMBOLS[token]) return SYMBOLS[token] ?? null;
  return /^[a-z]{3}$/i.test(token) && isCurrency(token.toUpperCase()) ? token.toUpperCase() : null;
}

/** A number as written with or without thousands separators, as a plain decimal string. */
function plainAmount(text: string): string | null {
  const grouped = GROUPED_POINT.exec(text) ?? GROUPED_COMMA.exec(text) ?? GROUPED_DOTS.exec(text);
  if (grouped) {
    const whole = (grouped[1] ?? '').replace(/[.,]/g, '');
    return grouped[2] === undefined || grouped[2] === '' ? whole : `${whole}.${grouped[2]}`;
  }
  const m = PLAIN.exec(text);
  if (!m) return null;
  return m[2] === undefined ? (m[1] ?? '') : `${m[1] ?? ''}.${m[2]}`;
}

/** Splits "15.99€", "$9.99", "R$29,90" into an amount and a currency. */
function amountToken(
  token: string,
  local?: string,
): { amount: string; currency: string | null; oneGroup: boolean; exact: boolean } | null {
  const m = /^([^\d-]*)(-?[\d.,]+)(\D*)$/u.exec(token);
  if (!m) return null;
  const [, before = '', digits = '', after = ''] = m;
  if (before !== '' && after !== '') return null;
  const symbol = before || after;
  const currency = symbol === '' ? null : symbolCurrency(symbol, local);
  if (symbol !== '' && currency === null) return null;
  const amount = plainAmount(digits);
  if (amount === null) return null;
  // "15.99", "€15", "15EUR" read as a price; a bare "15" may as well be a day of the month.
  const exact = currency !== null || /[.,]/.test(digits);
  return { amount, currency, oneGroup: ONE_GROUP.test(digits), exact };
}

/**
 * The first date on or after `today` that is exactly day `day` of its month. A month too short
 * for the day is passed over rather than clamped: the series keeps its first date's day of the
 * month, so starting on Feb 28 would move every later charge to the 28th.
 */
export function nextDayOfMonth(day: number, today: string): string {
  const { year, month, day: todayDay } = parts(today);
  for (let i = 0; i < 14; i += 1) {
    const index = year * 12 + (month - 1) + i;
    const y = Math.floor(index / 12);
    const m = (index % 12) + 1;
    if (day <= daysInMonth(y, m) && (i > 0 || day >= todayDay)) return fromParts(y, m, day);
  }
  return today;
}

/**
 * Reads the one-line `/add` form: `Netflix 15.99 EUR monthly 5`. The name is every word before
 * the first amount; after it come, in any order, a currency code, a cycle word, and a day of the
 * month or a date. Anything missing is null, for the engine to ask or default.
 */
export function parseAddLine(line: string, today: string, householdCurrency?: string): ParsedAdd {
  const tokens = line
    .trim()
    .split(/\s+/)
    // "15.99/month", "€9/mo": the price and its cycle.
    .flatMap((token) => {
      const slash = /^(.+)\/([^/]+)$/.exec(token);
      return slash && CYCLE_WORDS[(slash[2] ?? '').toLowerCase()]
        ? [slash[1] ?? '', slash[2] ?? '']
        : [token];
    })
    .filter((s) => s.length > 0);
  const out: ParsedAdd = {
    name: null,
    amount: null,
    currency: null,
    cycle: null,
    every: 1,
    date: null,
    unknown: [],
    unsure: false,
  };
  const local = householdCurrency;
  const index = priceIndex(tokens, local);
  // "Netflix € 15.99": a symbol on its own just before the amount belongs to it.
  const symbolBefore = index > 1 ? symbolCurrency(tokens[index - 1] ?? '', local) : null;
  const boundary = nameBoundary(tokens, local);
  const nameEnd = Math.min(boundary, index === -1 ? boundary : symbolBefore ? index - 1 : index);
  const nameTokens = tokens.slice(0, nameEnd);
  out.name = nameTokens.length > 0 ? nameTokens.join(' ') : null;
  const amount = index === -1 ? null : amountToken(tokens[index] ?? '', local);
  out.amount = amount?.amount ?? null;
  out.currency = amount?.currency ?? symbolBefore;
  // Everything after the name but the price (and its symbol): cycle, currency, day, in any order.
  const rest = tokens.filter(
    (_, i) => i >= nameEnd && i !== index && !(symbolBefore !== null && i === index - 1),
  );
  const calendar = calendarDate(rest, today);
  if (calendar) {
    out.date = calendar.date;
    rest.splice(calendar.from, calendar.to - calendar.from);
  }
  for (let i = 0; i < rest.length; i += 1) {
    const token = rest[i] ?? '';
    const lower = token.toLowerCase();
    const upper = token.toUpperCase();
    if (START_WORDS.has(lower)) continue;
    const next = (rest[i + 1] ?? '').toLowerCase();
    const day = DAY.exec(token);
    if (/^[a-z]{3}$/i.test(token) && isCurrency(upper) && out.currency === null)
      out.currency = upper;
    else if (symbolCurrency(token, local) !== null && out.currency === null)
      out.currency = symbolCurrency(token, local);
    else if (PER_WORDS.has(lower) && UNIT_WORDS[next] && out.cycle === null) {
      out.cycle = UNIT_WORDS[next] ?? null;
      i += 1;
    } else if (EVERY_WORDS.has(lower) && out.cycle === null && everyPhrase(rest, i + 1)) {
      const phrase = everyPhrase(rest, i + 1);
      if (phrase) {
        out.cycle = phrase.unit;
        out.every = phrase.every;
        i += phrase.words;
      }
    } else if (
      DAY_FILLERS.has(lower) &&
      (DAY.test(next) || DAY_FILLERS.has(next)) &&
      out.date === null
    )
      continue;
    else if (CYCLE_WORDS[lower] && out.cycle === null) {
      out.cycle = CYCLE_WORDS[lower]?.unit ?? null;
      out.every = CYCLE_WORDS[lower]?.every ?? 1;
    } else if (day && Number(day[1]) >= 1 && Number(day[1]) <= 31 && out.date === null)
      out.date = nextDayOfMonth(Number(day[1]), today);
    else if (isValidDate(token) && out.date === null) out.date = token;
    else out.unknown.push(token);
  }
  if (amount?.oneGroup) {
    const currency = out.currency ?? householdCurrency ?? null;
    const digits = (amount.amount.match(/\d/g) ?? []).join('');
    const thousands = currency === null || minorUnits(currency) < 3;
    out.amount = thousands ? digits : `${digits.slice(0, -3)}.${digits.slice(-3)}`;
    out.unsure = thousands;
  }
  return out;
}

/** "3 months", "2 semanas", "month" after "every"/"cada": the cycle and how many words it took. */
function everyPhrase(
  tokens: readonly string[],
  at: number,
): { unit: CycleUnit; every: number; words: number } | null {
  const first = (tokens[at] ?? '').toLowerCase();
  const second = (tokens[at + 1] ?? '').toLowerCase();
  if (/^\d{1,3}$/.test(first) && UNIT_WORDS[second] && Number(first) >= 1)
    return { unit: UNIT_WORDS[second] ?? 'month', every: Number(first), words: 2 };
  if (UNIT_WORDS[first]) return { unit: UNIT_WORDS[first] ?? 'month', every: 1, words: 1 };
  return null;
}

/** Whether a word ends the name: a cycle ("monthly", "every…", "per…"), a currency code or symbol. */
function endsName(tokens: readonly string[], i: number, local?: string): boolean {
  const token = tokens[i] ?? '';
  const lower = token.toLowerCase();
  const next = (tokens[i + 1] ?? '').toLowerCase();
  return (
    CYCLE_WORDS[lower] !== undefined ||
    (PER_WORDS.has(lower) && UNIT_WORDS[next] !== undefined) ||
    (EVERY_WORDS.has(lower) && everyPhrase(tokens, i + 1) !== null) ||
    (/^[A-Z]{3}$/.test(token) && isCurrency(token)) ||
    (SYMBOLS[token] !== undefined && symbolCurrency(token, local) !== null)
  );
}

/** Where the name ends when the line has no price: at its first cycle or currency word. */
function nameBoundary(tokens: readonly string[], local?: string): number {
  for (let i = 1; i < tokens.length; i += 1) if (endsName(tokens, i, local)) return i;
  return tokens.length;
}

/**
 * Which word is the price. The name comes first, so the price is looked for before the first
 * cycle or currency word: a written price ("19,95", "€15") wins over bare numbers that may belong
 * to the name ("Microsoft 365 69.99"), else the first bare number ("Gym 30 5": 30, then day 5).
 * After a cycle word, only a written price counts: "Netflix monthly 5" has a day, not a price.
 * A line that starts with its price has no name.
 */
function priceIndex(tokens: readonly string[], local?: string): number {
  const boundary = nameBoundary(tokens, local);
  const before: number[] = [];
  for (let i = 0; i < boundary; i += 1) if (amountToken(tokens[i] ?? '', local)) before.push(i);
  const named = before.filter((i) => i > 0);
  const exact = named.filter((i) => amountToken(tokens[i] ?? '', local)?.exact);
  if (exact.length > 0) return exact.at(-1) ?? -1;
  if (named.length > 0) return named[0] ?? -1;
  for (let i = boundary; i < tokens.length; i += 1)
    if (amountToken(tokens[i] ?? '', local)?.exact) return i;
  return before[0] === 0 ? 0 : -1;
}

/**
 * A date said in words: "today", "mañana", "15 de marzo", "el 1 de julio de 2027", "Dec 5",
 * "March 3rd 2027". Without a year it is the next such day on or after `today`. Returns the date
 * and the tokens it took (from, to), or null.
 */
function calendarDate(
  tokens: readonly string[],
  today: string,
): { date: string; from: number; to: number } | null {
  const lower = tokens.map((t) => t.toLowerCase().replace(/,$/, ''));
  const relative: Record<string, number> = { today: 0, hoy: 0, tomorrow: 1, mañana: 1 };
  for (let i = 0; i < lower.length; i += 1) {
    const word = lower[i] ?? '';
    if (relative[word] !== undefined)
      return { date: addDays(today, relative[word] ?? 0), from: i, to: i + 1 };
    const month = MONTHS[word];
    if (month === undefined) continue;
    let from = i;
    let to = i + 1;
    let day: number | null = null;
    const before = DAY.exec(lower[i - 1] ?? '');
    const beforeDe = lower[i - 1] === 'de' ? DAY.exec(lower[i - 2] ?? '') : null;
    const after = DAY.exec(lower[i + 1] ?? '');
    if (beforeDe) {
      day = Number(beforeDe[1]);
      from = i - 2;
    } else if (before) {
      day = Number(before[1]);
      from = i - 1;
    } else if (after) {
      day = Number(after[1]);
      to = i + 2;
    }
    if (day === null) continue;
    let year: number | null = null;
    const yearAt = lower[to] === 'de' ? to + 1 : to;
    if (/^\d{4}$/.test(lower[yearAt] ?? '')) {
      year = Number(lower[yearAt]);
      to = yearAt + 1;
    }
    while (from > 0 && ['el', 'on', 'the', 'día', 'dia'].includes(lower[from - 1] ?? '')) from -= 1;
    const { year: thisYear } = parts(today);
    const candidate = (y: number): string | null => {
      const date = `${String(y).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
      return isValidDate(date) ? date : null;
    };
    const date =
      year !== null
        ? candidate(year)
        : ([thisYear, thisYear + 1, thisYear + 2, thisYear + 3, thisYear + 4]
            .map(candidate)
            .find((d): d is string => d !== null && d >= today) ?? null);
    if (date) return { date, from, to };
  }
  return null;
}
