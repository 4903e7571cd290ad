import { isCurrency } from '../domain/currencies.ts';
import { daysInMonth, fromParts, isValidDate, parts } from '../domain/dates.ts';
import type { AddDraft } from './actions.ts';

type CycleUnit = NonNullable<AddDraft['cycle']>;

/** Cycle words in English and Spanish. */
const CYCLE_WORDS: Record<string, CycleUnit> = {
  daily: 'day',
  day: 'day',
  diario: 'day',
  diaria: 'day',
  weekly: 'week',
  week: 'week',
  semanal: 'week',
  semana: 'week',
  monthly: 'month',
  month: 'month',
  mo: 'month',
  mensual: 'month',
  mes: 'month',
  yearly: 'year',
  year: 'year',
  annual: 'year',
  annually: 'year',
  yr: 'year',
  anual: 'year',
  año: 'year',
};

const SYMBOLS: Record<string, string> = { '€': 'EUR', $: 'USD', '£': 'GBP', '¥': 'JPY' };

const AMOUNT = /^(\d{1,13})(?:[.,](\d{1,4}))?$/;

export interface ParsedAdd {
  name: string | null;
  amount: string | null;
  currency: string | null;
  cycle: CycleUnit | null;
  /** First charge date, from a day of month or a full date. */
  date: string | null;
  /** Words after the amount that were not understood. */
  unknown: string[];
}

/** Splits "15.99€", "$9.99" into an amount and a currency. */
function amountToken(token: string): { amount: string; currency: string | null } | null {
  let text = token;
  let currency: string | null = null;
  const first = text.charAt(0);
  const last = text.charAt(text.length - 1);
  if (SYMBOLS[first]) {
    currency = SYMBOLS[first] ?? null;
    text = text.slice(1);
  } else if (SYMBOLS[last]) {
    currency = SYMBOLS[last] ?? null;
    text = text.slice(0, -1);
  }
  const m = AMOUNT.exec(text);
  if (!m) return null;
  return { amount: m[2] === undefined ? (m[1] ?? '') : `${m[1] ?? ''}.${m[2]}`, currency };
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
export function parseAddLine(line: string, today: string): ParsedAdd {
  const tokens = line
    .trim()
    .split(/\s+/)
    .filter((s) => s.length > 0);
  const out: ParsedAdd = {
    name: null,
    amount: null,
    currency: null,
    cycle: null,
    date: null,
    unknown: [],
  };
  const index = tokens.findIndex((tok, i) => i > 0 && amountToken(tok) !== null);
  const nameTokens = index === -1 ? tokens : tokens.slice(0, index);
  out.name = nameTokens.length > 0 ? nameTokens.join(' ').slice(0, 120) : null;
  if (index === -1) return out;
  const amount = amountToken(tokens[index] ?? '');
  out.amount = amount?.amount ?? null;
  out.currency = amount?.currency ?? null;
  for (const token of tokens.slice(index + 1)) {
    const lower = token.toLowerCase();
    const upper = token.toUpperCase();
    if (/^[a-z]{3}$/i.test(token) && isCurrency(upper) && out.currency === null)
      out.currency = upper;
    else if (CYCLE_WORDS[lower] && out.cycle === null) out.cycle = CYCLE_WORDS[lower] ?? null;
    else if (
      /^\d{1,2}$/.test(token) &&
      Number(token) >= 1 &&
      Number(token) <= 31 &&
      out.date === null
    )
      out.date = nextDayOfMonth(Number(token), today);
    else if (isValidDate(token) && out.date === null) out.date = token;
    else out.unknown.push(token);
  }
  return out;
}
