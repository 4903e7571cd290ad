import type { Cycle } from '../../../core/domain/cycles.ts';
import { nthOccurrence } from '../../../core/domain/cycles.ts';
import { addDays, toDayNumber } from '../../../core/domain/dates.ts';

/**
 * Statements with known answers, for measuring subscription detection: several banks' CSV
 * layouts, 3 to 13 months, subscriptions on every cycle Exhale knows (charges moved off weekends),
 * price rises, foreign-currency prices converted at a moving rate, and noise: groceries and
 * coffee at the same shops on irregular days, one-off purchases, refunded purchases, a salary.
 * Deterministic for a seed.
 */

export interface TruthSubscription {
  /** The merchant text of its first charge (what detection should group). */
  raw: string;
  cycle: Cycle;
  charges: number;
}

export interface GeneratedStatement {
  layout: Layout;
  text: string;
  truth: TruthSubscription[];
  rows: number;
}

export const LAYOUTS = ['n26', 'sparkasse', 'us', 'knab', 'headerless', 'uk'] as const;
export type Layout = (typeof LAYOUTS)[number];

/** mulberry32: a small seeded generator, so a failing seed can be replayed. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface PoolEntry {
  variants: (n: number) => string;
  cycles: Cycle[];
  /** Price in cents. */
  price: [number, number];
}

const M = (every: number): Cycle => ({ unit: 'month', every });
const W = (every: number): Cycle => ({ unit: 'week', every });
const Y: Cycle = { unit: 'year', every: 1 };

const POOL: PoolEntry[] = [
  {
    variants: (n) => (n % 2 ? 'NETFLIX.COM 866-579-7172 CA' : 'Netflix.com Amsterdam NL'),
    cycles: [M(1)],
    price: [799, 1799],
  },
  {
    variants: (n) => (n % 3 ? `PAYPAL *SPOTIFY ${35314369001 + n}` : `Spotify P${1000 + n}AB`),
    cycles: [M(1)],
    price: [999, 1699],
  },
  {
    variants: (n) => `SQ *IRON GYM ${4400 + (n % 7)} London`,
    cycles: [W(1), M(1)],
    price: [1200, 4500],
  },
  { variants: (n) => `SumUp *Yoga Studio Luz ${n % 5}`, cycles: [W(2), W(1)], price: [1500, 2500] },
  { variants: () => 'APPLE.COM/BILL ITUNES.COM', cycles: [M(1)], price: [99, 299] },
  {
    variants: (n) => `FOLGELASTSCHRIFT Vodafone Kabel Deutschland KD-NR 1325874${n % 10}`,
    cycles: [M(1)],
    price: [2999, 4999],
  },
  {
    variants: (n) => `Allianz Versicherungs-AG VERS.NR ${88120 + n}`,
    cycles: [M(3), M(6)],
    price: [8000, 25000],
  },
  { variants: () => 'HUK-COBURG Kfz-Versicherung', cycles: [M(6), Y], price: [20000, 60000] },
  { variants: (n) => `DROPBOX*${7000 + n} DBX.CO/BILL`, cycles: [M(1), Y], price: [999, 1199] },
  { variants: (n) => `OPENAI *CHATGPT SUBSCR ${n}`, cycles: [M(1)], price: [2000, 2300] },
  { variants: (n) => `Audible Ltd ${12000 + n}`, cycles: [M(1)], price: [799, 999] },
  { variants: () => 'Endesa Energia SAU recibo', cycles: [M(2)], price: [6000, 12000] },
  {
    variants: (n) => `The Economist ${n % 3 ? 'LONDON' : 'GBR'}`,
    cycles: [Y, M(3)],
    price: [5000, 19900],
  },
  { variants: (n) => `Patreon* Membership ${n}`, cycles: [M(1)], price: [300, 1000] },
  { variants: (n) => `DISNEY PLUS ${20000 + n}`, cycles: [M(1), Y], price: [899, 1399] },
  {
    variants: (n) => `Amazon Prime*${(n * 7919) % 100000} Amzn.com/bill`,
    cycles: [Y, M(1)],
    price: [899, 8999],
  },
  { variants: () => 'NYTimes Digital', cycles: [W(1), W(2)], price: [200, 500] },
  { variants: (n) => `Duolingo Plus ${n}`, cycles: [M(1), M(6)], price: [699, 1299] },
];

/** Minimum charges in a statement for a series to count as findable (cycle length in days → count). */
function findable(cycle: Cycle, count: number): boolean {
  const short = cycle.unit === 'week' && cycle.every === 1 ? 4 : 3;
  const long = cycle.unit === 'year' || (cycle.unit === 'month' && cycle.every >= 3);
  return count >= (long ? 2 : short);
}

const SHOPS = [
  'LIDL DANKT 0391',
  'REWE SAGT DANKE 4140',
  'Mercadona Valencia',
  'TESCO STORES 3012',
];
const ONE_OFF = [
  'IKEA',
  'Zalando',
  'MediaMarkt',
  'Decathlon',
  'Booking.com',
  'Ryanair',
  'Cinema Paradiso',
  'Pharmacy Plus',
  'Shell',
  'Uber Trip',
  'Deliveroo',
  'Hornbach',
  'Primark',
  'Etsy',
];

interface Row {
  date: string;
  text: string;
  /** Cents, signed. */
  cents: number;
}

/** Monday for a Saturday or Sunday: banks book card and direct-debit charges on working days. */
function workingDay(date: string): string {
  const dow = (((toDayNumber(date) + 4) % 7) + 7) % 7; // 1970-01-01 was a Thursday (4); 0 = Sunday
  if (dow === 6) return addDays(date, 2);
  if (dow === 0) return addDays(date, 1);
  return date;
}

export function generateStatement(
  seed: number,
  options: { layout?: Layout; months?: number; extraRows?: number } = {},
): GeneratedStatement {
  const rnd = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
  const between = (a: number, b: number) => Math.round(a + rnd() * (b - a));
  const layout = options.layout ?? pick(LAYOUTS);
  const months = options.months ?? between(3, 13);
  const start = `202${between(4, 5)}-${String(between(1, 12)).padStart(2, '0')}-01`;
  const end = addDays(nthOccurrence(start, M(months), 1), -1);
  const rows: Row[] = [];
  const truth: TruthSubscription[] = [];

  const chosen = [...POOL].sort(() => rnd() - 0.5).slice(0, between(3, 8));
  for (const entry of chosen) {
    const cycle = pick(entry.cycles);
    const anchor = addDays(start, between(0, cycle.unit === 'week' ? 6 : 27));
    let price = between(entry.price[0], entry.price[1]);
    const fx = cycle.unit === 'month' && cycle.every === 1 && rnd() < 0.2;
    const dates: string[] = [];
    for (let n = 0; n < 500; n++) {
      const d = nthOccurrence(anchor, cycle, n);
      if (d > end) break;
      dates.push(workingDay(d));
    }
    const rise = dates.length >= 5 && !fx && rnd() < 0.3 ? between(2, dates.length - 2) : -1;
    dates.forEach((date, n) => {
      if (n === rise) price = Math.round(price * (1.1 + rnd() * 0.15));
      const cents = fx ? Math.round(price * (0.97 + rnd() * 0.06)) : price;
      if (date <= end) rows.push({ date, text: entry.variants(n), cents: -cents });
    });
    if (findable(cycle, dates.length))
      truth.push({ raw: entry.variants(0), cycle, charges: dates.length });
  }

  // Noise: groceries 1–3 times a week, coffee now and then, one-offs, refunds, salary.
  for (let day = start; day <= end; day = addDays(day, between(1, 4))) {
    rows.push({ date: day, text: pick(SHOPS), cents: -between(500, 12000) });
    if (rnd() < 0.3)
      rows.push({ date: day, text: 'STARBUCKS COFFEE 0815', cents: -between(380, 520) });
    if (rnd() < 0.15)
      rows.push({
        date: day,
        text: `${pick(ONE_OFF)} ${between(100, 99999)}`,
        cents: -between(1000, 30000),
      });
    if (rnd() < 0.04) {
      const text = `${pick(ONE_OFF)} ORDER ${between(1000, 9999)}`;
      const cents = between(2000, 15000);
      rows.push(
        { date: day, text, cents: -cents },
        { date: addDays(day, between(2, 9)), text, cents },
      );
    }
  }
  for (let n = 0; n < months; n++)
    rows.push({
      date: workingDay(nthOccurrence(addDays(start, 26), M(1), n)),
      text: 'ACME GMBH GEHALT',
      cents: between(250000, 260000),
    });
  for (let i = 0; i < (options.extraRows ?? 0); i++) {
    rows.push({
      date: addDays(start, i % Math.max(1, months * 28)),
      text: `${pick(ONE_OFF)} ${i}`,
      cents: -between(100, 90000),
    });
  }
  const inRange = rows
    .filter((r) => r.date <= end)
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return { layout, text: render(layout, inRange), truth, rows: inRange.length };
}

function decimal(cents: number, mark: ',' | '.', thousands: string): string {
  const abs = Math.abs(cents);
  const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
  return `${whole}${mark}${String(abs % 100).padStart(2, '0')}`;
}

function render(layout: Layout, rows: readonly Row[]): string {
  const [dmy, mdy, dmyDots, dmyDash] = [
    (d: string) => `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`,
    (d: string) => `${Number(d.slice(5, 7))}/${Number(d.slice(8, 10))}/${d.slice(0, 4)}`,
    (d: string, short = false) =>
      `${d.slice(8, 10)}.${d.slice(5, 7)}.${short ? d.slice(2, 4) : d.slice(0, 4)}`,
    (d: string) => `${d.slice(8, 10)}-${d.slice(5, 7)}-${d.slice(0, 4)}`,
  ];
  const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
  const sign = (c: number) => (c < 0 ? '-' : '');
  switch (layout) {
    case 'n26':
      return [
        'Datum,Empfänger,Kontonummer,Transaktionstyp,Verwendungszweck,Kategorie,Betrag (EUR)',
        ...rows.map(
          (r) =>
            `${r.date},${q(r.text)},,MasterCard Zahlung,,Sonstiges,${sign(r.cents)}${decimal(r.cents, '.', '')}`,
        ),
      ].join('\n');
    case 'sparkasse':
      return [
        '"Umsatzanzeige";"Datei erstellt am: 01.12.2026"',
        '',
        '"Buchungstag";"Verwendungszweck";"Beguenstigter/Zahlungspflichtiger";"Betrag";"Waehrung"',
        ...rows.map((r) =>
          [
            q(dmyDots(r.date, true)),
            q('SEPA'),
            q(r.text),
            q(`${sign(r.cents)}${decimal(r.cents, ',', '.')}`),
            q('EUR'),
          ].join(';'),
        ),
      ].join('\r\n');
    case 'us':
      return [
        'Date,Description,Debit,Credit,Balance',
        ...rows.map(
          (r) =>
            `${mdy(r.date)},${q(r.text)},${r.cents < 0 ? q(`$${decimal(r.cents, '.', ',')}`) : ''},${r.cents > 0 ? q(`$${decimal(r.cents, '.', ',')}`) : ''},`,
        ),
      ].join('\n');
    case 'knab':
      return [
        'KNAB EXPORT;;;;',
        'Transactiedatum;CreditDebet;Bedrag;Tegenrekeninghouder;Omschrijving',
        ...rows.map((r) =>
          [
            q(dmyDash(r.date)),
            q(r.cents < 0 ? 'D' : 'C'),
            q(decimal(r.cents, ',', '')),
            q(r.text),
            q(''),
          ].join(';'),
        ),
      ].join('\n');
    case 'headerless':
      return rows
        .map((r) =>
          [
            dmyDots(r.date),
            q(r.text),
            dmyDots(r.date),
            `${sign(r.cents)}${decimal(r.cents, ',', '')}`,
            'EUR',
            '',
          ].join(';'),
        )
        .join('\n');
    case 'uk':
      return [
        '\uFEFFDate,Description,Amount',
        ...rows.map(
          (r) =>
            `${dmy(r.date)},${q(r.text)},${r.cents < 0 ? '-' : ''}£${decimal(r.cents, '.', ',')}`,
        ),
      ].join('\n');
    default: {
      const unreachable: never = layout;
      throw new Error(`unknown layout ${String(unreachable)}`);
    }
  }
}
