import { isCurrency, minorUnits } from '../domain/currencies.ts';
import {
  addDays,
  addMonths,
  daysInMonth,
  fromParts,
  isValidDate,
  parts,
  toDayNumber,
} from '../domain/dates.ts';
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
  // Said of a price as an adjective or adverb, plural too: "30 EUR mensuales", "anualmente".
  diarios: each('day'),
  diarias: each('day'),
  diariamente: each('day'),
  semanales: each('week'),
  semanalmente: each('week'),
  'bi-weekly': each('week', 2),
  quincenales: each('week', 2),
  mensuales: each('month'),
  mensualmente: each('month'),
  bimestrales: each('month', 2),
  trimestrales: each('month', 3),
  semestrales: each('month', 6),
  anuales: each('year'),
  anualmente: each('year'),
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
  mo: 'month',
  mos: 'month',
  wk: 'week',
  wks: 'week',
  yr: 'year',
  yrs: 'year',
  year: 'year',
  years: 'year',
  año: 'year',
  años: 'year',
  ano: 'year',
  anos: 'year',
};

const EVERY_WORDS = new Set(['every', 'cada']);

/** Small counts said in words after "every": "every other month", "cada dos meses". */
const COUNT_WORDS: Record<string, number> = {
  other: 2,
  second: 2,
  two: 2,
  dos: 2,
  three: 3,
  tres: 3,
  four: 4,
  cuatro: 4,
  six: 6,
  seis: 6,
};

/** Days of the week (0 = Sunday), English and Spanish, full and short: "next friday", "el viernes". */
const WEEKDAYS: Record<string, number> = Object.fromEntries(
  [
    ['sunday', 'sun', 'domingo'],
    ['monday', 'mon', 'lunes'],
    ['tuesday', 'tue', 'tues', 'martes'],
    ['wednesday', 'wed', 'miércoles', 'miercoles'],
    ['thursday', 'thu', 'thurs', 'jueves'],
    ['friday', 'fri', 'viernes'],
    ['saturday', 'sat', 'sábado', 'sabado'],
  ].flatMap((names, i) => names.map((name) => [name, i] as const)),
);
const NEXT_WORDS = new Set([
  'next',
  'this',
  'coming',
  'próximo',
  'proximo',
  'próxima',
  'proxima',
  'este',
]);

/**
 * Words between a name and its price that belong to neither: "Netflix for 15.99", "Gym membership
 * at 30 EUR", "Netflix por 15,99", "Gimnasio a 30 EUR".
 */
const PRICE_FILLERS = new Set([
  'for',
  'at',
  'costs',
  'cost',
  'por',
  'a',
  'cuesta',
  'para',
  '@',
  '=',
  '-',
  '–',
  ':',
]);

/** Words that start a free trial: "trial 7 days", "free trial until…", "prueba hasta…", "7 días gratis". */
const TRIAL_WORDS = new Set(['trial', 'prueba']);
const FREE_WORDS = new Set(['free', 'gratis', 'gratuita', 'gratuito']);
const UNTIL_WORDS = new Set(['until', 'till', 'to', 'ends', 'ending', 'hasta']);

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
/** Currencies called pesos: only the household's own is meant by "pesos". */
const PESOS = new Set(['MXN', 'ARS', 'CLP', 'COP', 'UYU', 'DOP', 'CUP', 'PHP']);

/**
 * Currencies said in words after a price: "30 euros", "20 dollars", "10 libras". A dollar is read
 * as "$" is (the household's own when it counts in dollars, else USD), and "pesos" only as the
 * household's own pesos: a word that could be several currencies never guesses another country's.
 */
const CURRENCY_WORDS: Record<string, string> = {
  euro: 'EUR',
  euros: 'EUR',
  dollar: '$',
  dollars: '$',
  dólar: '$',
  dolar: '$',
  dólares: '$',
  dolares: '$',
  pound: 'GBP',
  pounds: 'GBP',
  libra: 'GBP',
  libras: 'GBP',
  sterling: 'GBP',
  esterlinas: 'GBP',
  yen: 'JPY',
  yenes: 'JPY',
  yuan: 'CNY',
  reais: 'BRL',
  reales: 'BRL',
  pesos: 'pesos',
};

/** A word left unread that names a currency this household's line cannot tell ("pesos" in euros), or null. */
export function unclearCurrencyWord(words: readonly string[], local?: string): string | null {
  return (
    words.find((w) => CURRENCY_WORDS[w.toLowerCase()] !== undefined && !wordCurrency(w, local)) ??
    null
  );
}

/** The currency a word says ("euros", "dollars"), or null. */
function wordCurrency(word: string, local?: string): string | null {
  const said = CURRENCY_WORDS[word.toLowerCase()];
  if (said === undefined) return null;
  if (said === '$') return symbolCurrency('$', local);
  if (said === 'pesos') return local !== undefined && PESOS.has(local) ? local : null;
  return said;
}

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
  /** A free trial's last day, when the line says one ("trial 7 days", "prueba hasta el 15 de diciembre"). */
  trial: string | null;
  /** Words after the amount that were not understood. */
  unknown: string[];
  /** The price as it was typed ("-5", "10,99"), beside `amount` as it was read; null without one. */
  amountTyped: string | null;
  /**
   * Words that stood where the price goes but do not read as one ("Gym twelve EUR monthly":
   * "twelve"): kept out of the name, for the engine to say it could not read them.
   */
  unreadPrice: string | null;
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
    trial: null,
    unknown: [],
    unsure: false,
    amountTyped: null,
    unreadPrice: null,
  };
  const local = householdCurrency;
  const index = priceIndex(tokens, local);
  // "Netflix € 15.99": a symbol on its own just before the amount belongs to it.
  const symbolBefore = index > 1 ? symbolCurrency(tokens[index - 1] ?? '', local) : null;
  const boundary = nameBoundary(tokens, local);
  const nameEnd = Math.min(boundary, index === -1 ? boundary : symbolBefore ? index - 1 : index);
  const nameTokens = tokens.slice(0, nameEnd);
  // "Netflix for 15.99": the filler before the price is neither name nor unknown.
  while (nameTokens.length > 1 && isPriceFiller(nameTokens.at(-1) ?? '')) nameTokens.pop();
  if (index === -1) {
    const unread = unreadPrice(nameTokens, boundary < tokens.length);
    if (unread) {
      out.unreadPrice = unread.words.join(' ');
      nameTokens.splice(unread.from);
      while (nameTokens.length > 1 && isPriceFiller(nameTokens.at(-1) ?? '')) nameTokens.pop();
    }
  }
  out.name = nameTokens.length > 0 ? nameTokens.join(' ') : null;
  const amount = index === -1 ? null : amountToken(tokens[index] ?? '', local);
  out.amountTyped = amount ? (tokens[index] ?? null) : null;
  out.amount = amount?.amount ?? null;
  out.currency = amount?.currency ?? symbolBefore;
  // Everything after the name but the price (and its symbol): cycle, currency, day, in any order.
  const rest = tokens.filter(
    (_, i) => i >= nameEnd && i !== index && !(symbolBefore !== null && i === index - 1),
  );
  const trial = trialPhrase(rest, today);
  if (trial) {
    out.trial = trial.date;
    rest.splice(trial.from, trial.to - trial.from);
  }
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
    const inWords = wordCurrency(token, local);
    if (/^[a-z]{3}$/i.test(token) && isCurrency(upper) && out.currency === null)
      out.currency = upper;
    else if (inWords !== null && (out.currency === null || out.currency === inWords))
      out.currency = inWords;
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
  if (COUNT_WORDS[first] !== undefined && UNIT_WORDS[second])
    return { unit: UNIT_WORDS[second] ?? 'month', every: COUNT_WORDS[first] ?? 2, words: 2 };
  if (UNIT_WORDS[first]) return { unit: UNIT_WORDS[first] ?? 'month', every: 1, words: 1 };
  return null;
}

/** Words that say "the price is": "HBO precio raro", "Gym price twelve". */
const PRICE_WORDS = new Set(['price', 'precio', 'costs', 'cost', 'cuesta', 'coste', 'costo']);

/** Numbers said in words, which the reader does not take as a price: "twelve", "doce". */
const NUMBER_WORDS = new Set(
  (
    'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen ' +
    'fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty ' +
    'ninety hundred thousand cero uno una dos tres cuatro cinco seis siete ocho nueve diez once ' +
    'doce trece catorce quince dieciséis dieciseis diecisiete dieciocho diecinueve veinte treinta ' +
    'cuarenta cincuenta sesenta setenta ochenta noventa cien ciento mil'
  ).split(' '),
);

/**
 * The last words of a price-less name that were meant as its price, or null when the name is
 * just a name. After a price word ("HBO precio raro"), everything after it is. When a currency or
 * cycle word follows the name ("Gym twelve EUR monthly", "Spotify abc EUR"), its last word is,
 * if it reads like a try at a number (a number word, digits) or is a lower-case word after a
 * capitalised name; "Netflix Premium EUR" and a plain "Disney Plus" stay names.
 */
function unreadPrice(
  nameTokens: readonly string[],
  pricedLine: boolean,
): { from: number; words: string[] } | null {
  const said = nameTokens.findIndex((t, i) => i > 0 && PRICE_WORDS.has(t.toLowerCase()));
  if (said !== -1 && said < nameTokens.length - 1)
    return { from: said, words: nameTokens.slice(said + 1) };
  if (!pricedLine || nameTokens.length < 2) return null;
  const last = nameTokens.at(-1) ?? '';
  const capitalised = /^\p{Lu}/u.test(nameTokens[0] ?? '');
  const tried =
    NUMBER_WORDS.has(last.toLowerCase()) ||
    /\d/.test(last) ||
    (capitalised && /^\p{Ll}/u.test(last));
  return tried ? { from: nameTokens.length - 1, words: [last] } : null;
}

/** A filler between name and price; a capital "A" stays (it may be a plan's name: "Plan A"). */
function isPriceFiller(token: string): boolean {
  return token === 'a' || (token !== 'A' && PRICE_FILLERS.has(token.toLowerCase()));
}

/** "7 days", "2 semanas", "1 month": a length of time, as a number of units, and its end from `today`. */
function spanEnd(count: string, unit: string, today: string): string | null {
  const n = /^\d{1,3}$/.test(count)
    ? Number(count)
    : (COUNT_WORDS[count] ?? (['one', 'un', 'una', 'uno'].includes(count) ? 1 : null));
  const u = UNIT_WORDS[unit];
  if (n === null || n < 1 || !u) return null;
  if (u === 'day') return addDays(today, n);
  if (u === 'week') return addDays(today, 7 * n);
  return addMonths(today, u === 'year' ? 12 * n : n);
}

/**
 * A free trial said in the line, and the words it took: "trial 7 days", "7-day trial", "free trial
 * until 2026-12-15", "prueba hasta el 15 de diciembre", "prueba de 7 días", "7 días gratis",
 * "1 month free". The date is the trial's last day: the day it turns into a paid subscription.
 */
function trialPhrase(
  tokens: string[],
  today: string,
): { date: string; from: number; to: number } | null {
  // "7-day" and "7-días" read as two words.
  const lower = tokens.map((t) => t.toLowerCase().replace(/,$/, ''));
  for (let i = 0; i < lower.length; i += 1) {
    const word = lower[i] ?? '';
    // "N <unit> free|gratis|trial|de prueba"
    const split = /^(\d{1,3})-([a-zá-ú]+)$/.exec(word);
    const [count, unit, after] = split
      ? [split[1] ?? '', split[2] ?? '', i + 1]
      : [word, lower[i + 1] ?? '', i + 2];
    const tail = lower[after] ?? '';
    if (
      spanEnd(count, unit, today) !== null &&
      (FREE_WORDS.has(tail) ||
        TRIAL_WORDS.has(tail) ||
        (tail === 'de' && TRIAL_WORDS.has(lower[after + 1] ?? '')))
    ) {
      let to = after + (tail === 'de' ? 2 : 1);
      if (FREE_WORDS.has(tail) && TRIAL_WORDS.has(lower[to] ?? '')) to += 1;
      if (TRIAL_WORDS.has(tail) && FREE_WORDS.has(lower[to] ?? '')) to += 1;
      return { date: spanEnd(count, unit, today) ?? today, from: i, to };
    }
    if (!TRIAL_WORDS.has(word)) continue;
    let from = i;
    while (
      from > 0 &&
      (FREE_WORDS.has(lower[from - 1] ?? '') ||
        ['a', 'la', 'de', 'with', 'con'].includes(lower[from - 1] ?? ''))
    )
      from -= 1;
    let at = i + 1;
    while (
      FREE_WORDS.has(lower[at] ?? '') ||
      ['de', 'of', 'for', 'por', 'durante'].includes(lower[at] ?? '')
    )
      at += 1;
    const span = /^(\d{1,3})-([a-zá-ú]+)$/.exec(lower[at] ?? '');
    const end = span
      ? spanEnd(span[1] ?? '', span[2] ?? '', today)
      : spanEnd(lower[at] ?? '', lower[at + 1] ?? '', today);
    if (end !== null) return { date: end, from, to: at + (span ? 1 : 2) };
    if (UNTIL_WORDS.has(lower[at] ?? '')) {
      const start = at + 1;
      const iso = tokens[start] ?? '';
      if (isValidDate(iso)) return { date: iso, from, to: start + 1 };
      const said = calendarDate(tokens.slice(start), today);
      const skipped = ['el', 'the', 'on', 'día', 'dia'].includes(lower[start] ?? '') ? 1 : 0;
      if (said && said.from <= skipped) return { date: said.date, from, to: start + said.to };
    }
  }
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
    // "Gym twelve euros monthly": a currency in lower-case words ends the name too.
    (token === lower && wordCurrency(token, local) !== null) ||
    TRIAL_WORDS.has(lower) ||
    (FREE_WORDS.has(lower) && TRIAL_WORDS.has(next)) ||
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
    // "next friday", "el próximo viernes", "friday": the first such day after today.
    const weekday = WEEKDAYS[word];
    if (weekday !== undefined) {
      let from = i;
      if (NEXT_WORDS.has(lower[from - 1] ?? '')) from -= 1;
      if (['el', 'on', 'the'].includes(lower[from - 1] ?? '')) from -= 1;
      // 1970-01-01 (day 0) was a Thursday.
      const todayWeekday = (((toDayNumber(today) + 4) % 7) + 7) % 7;
      const ahead = (weekday - todayWeekday + 7) % 7 || 7;
      return { date: addDays(today, ahead), from, to: i + 1 };
    }
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

// === One field at a time (Edit): the same words as /add, read on their own.

const words = (text: string): string[] =>
  text
    .trim()
    .split(/\s+/)
    .filter((w) => w.length > 0);

/** A cycle said alone: "monthly", "every 3 months", "every other week", "per mo", "cada año". */
export function readCycle(text: string): { unit: CycleUnit; every: number } | null {
  const tokens = words(text.toLowerCase());
  if (tokens.length === 1 && CYCLE_WORDS[tokens[0] ?? ''])
    return {
      unit: CYCLE_WORDS[tokens[0] ?? '']?.unit ?? 'month',
      every: CYCLE_WORDS[tokens[0] ?? '']?.every ?? 1,
    };
  const first = tokens[0] ?? '';
  if (EVERY_WORDS.has(first) || PER_WORDS.has(first)) {
    const phrase = everyPhrase(tokens, 1);
    if (phrase && phrase.words === tokens.length - 1)
      return { unit: phrase.unit, every: phrase.every };
  }
  return null;
}

/**
 * A date said alone: "2026-04-01", "5" (the next 5th), "April 5", "15 de abril", "tomorrow",
 * "next friday", or a month alone ("March", "from March": its 1st, this month or the next such).
 */
export function readDate(text: string, today: string): string | null {
  const tokens = words(text).filter((w) => !START_WORDS.has(w.toLowerCase()));
  if (tokens.length === 0) return null;
  const only = tokens.length === 1 ? (tokens[0] ?? '') : null;
  if (only !== null && isValidDate(only)) return only;
  const day = only !== null ? DAY.exec(only) : null;
  if (day && Number(day[1]) >= 1 && Number(day[1]) <= 31)
    return nextDayOfMonth(Number(day[1]), today);
  const said = calendarDate(tokens, today);
  if (said && said.to - said.from === tokens.length) return said.date;
  const lower = tokens.map((w) => w.toLowerCase());
  const monthWord = lower.find((w) => MONTHS[w] !== undefined);
  const month = monthWord === undefined ? undefined : MONTHS[monthWord];
  const yearWord = lower.find((w) => /^\d{4}$/.test(w));
  const fillers = lower.filter((w) => MONTHS[w] === undefined && w !== yearWord && w !== 'de');
  if (month !== undefined && fillers.length === 0) {
    const { year, month: thisMonth } = parts(today);
    const y = yearWord ? Number(yearWord) : month >= thisMonth ? year : year + 1;
    return fromParts(y, month, 1);
  }
  return null;
}

/** A trial's end said alone: a length ("7 days", "1 mes") or its last day ("until Dec 15", "2026-12-15"). */
export function readTrialEnd(text: string, today: string): string | null {
  const tokens = words(text);
  const found = trialPhrase(['trial', ...tokens], today);
  if (found && found.to === tokens.length + 1) return found.date;
  return readDate(text.replace(/^(until|till|hasta)\s+(el\s+)?/i, ''), today);
}

/**
 * A price said alone, with what may come with it: "17.99", "17,99 €", "17.99 from March".
 * `unsure`: it reads two ways ("1.200"), as /add's `unsure`: say how it was read.
 */
export function readPrice(
  text: string,
  today: string,
  currency: string,
): { amount: string; currency: string | null; from: string | null; unsure: boolean } | null {
  const tokens = words(text);
  const startAt = tokens.findIndex((w, i) => i > 0 && START_WORDS.has(w.toLowerCase()));
  const pricePart = startAt === -1 ? tokens : tokens.slice(0, startAt);
  const datePart = startAt === -1 ? [] : tokens.slice(startAt + 1);
  const parsed = parseAddLine(['price', ...pricePart].join(' '), today, currency);
  if (parsed.amount === null || parsed.name !== 'price' || parsed.unknown.length > 0) return null;
  if (parsed.cycle !== null || parsed.trial !== null || parsed.date !== null) return null;
  const from = datePart.length > 0 ? readDate(datePart.join(' '), today) : null;
  if (datePart.length > 0 && from === null) return null;
  return { amount: parsed.amount, currency: parsed.currency, from, unsure: parsed.unsure };
}
