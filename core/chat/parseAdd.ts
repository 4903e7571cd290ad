import { isCurrency, minorUnits } from '../domain/currencies.ts';
import { daysInMonth, fromParts, isValidDate, parts } from '../domain/dates.ts';
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

/** A plain amount: 15, 15.99, 15,99. */
const PLAIN = /^(\d{1,13})(?:[.,](\d{1,4}))?$/;
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

/** The currency of a symbol ("€", "US$") or of a code written against the number ("15EUR"), or null. */
function symbolCurrency(token: string): string | null {
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
): { amount: string; currency: string | null; oneGroup: boolean } | null {
  const m = /^(\D*)([\d.,]+)(\D*)$/u.exec(token);
  if (!m) return null;
  const [, before = '', digits = '', after = ''] = m;
  if (before !== '' && after !== '') return null;
  const symbol = before || after;
  const currency = symbol === '' ? null : symbolCurrency(symbol);
  if (symbol !== '' && currency === null) return null;
  const amount = plainAmount(digits);
  return amount === null ? null : { amount, currency, oneGroup: ONE_GROUP.test(digits) };
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
  const index = tokens.findIndex((tok, i) => i > 0 && amountToken(tok) !== null);
  // "Netflix € 15.99": a symbol on its own just before the amount belongs to it.
  const symbolBefore = index > 1 ? symbolCurrency(tokens[index - 1] ?? '') : null;
  const nameTokens = tokens.slice(
    0,
    index === -1 ? tokens.length : symbolBefore ? index - 1 : index,
  );
  out.name = nameTokens.length > 0 ? nameTokens.join(' ').slice(0, 120) : null;
  if (index === -1) return out;
  const amount = amountToken(tokens[index] ?? '');
  out.amount = amount?.amount ?? null;
  out.currency = amount?.currency ?? symbolBefore;
  const rest = tokens.slice(index + 1);
  for (let i = 0; i < rest.length; i += 1) {
    const token = rest[i] ?? '';
    const lower = token.toLowerCase();
    const upper = token.toUpperCase();
    const next = (rest[i + 1] ?? '').toLowerCase();
    const day = DAY.exec(token);
    if (/^[a-z]{3}$/i.test(token) && isCurrency(upper) && out.currency === null)
      out.currency = upper;
    else if (symbolCurrency(token) !== null && out.currency === null)
      out.currency = symbolCurrency(token);
    else if (EVERY_WORDS.has(lower) && out.cycle === null && everyPhrase(rest, i + 1)) {
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
    out.amount = (amount.amount.match(/\d/g) ?? []).join('');
    if (currency !== null && minorUnits(currency) >= 3)
      out.amount = `${out.amount.slice(0, -3)}.${out.amount.slice(-3)}`;
    out.unsure = true;
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
