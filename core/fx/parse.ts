import { isValidDate, type IsoDate } from '../domain/dates.ts';

/** One day of the ECB's reference rates: units of each currency per 1 EUR. */
export interface EcbDay {
  date: IsoDate;
  rates: Array<{ currency: string; per_eur: number }>;
}

const CUBE_TAG = /<Cube\b([^>]*)>/g;
const ATTRIBUTE = /([A-Za-z_][\w.-]*)\s*=\s*(?:'([^']*)'|"([^"]*)")/g;
const RATE = /^\d{1,9}(\.\d{1,10})?$/;

/**
 * Reads the ECB's eurofxref XML (the daily file and the 90-day and full history files share one
 * shape: `<Cube time="YYYY-MM-DD">` holding `<Cube currency="USD" rate="1.0939"/>`). Tolerant of
 * quoting and layout; entries that are not a real date, a three-letter code and a positive rate
 * are skipped, never guessed. Days come out oldest first.
 */
export function parseEcbXml(xml: string): EcbDay[] {
  const days = new Map<IsoDate, Map<string, number>>();
  let current: Map<string, number> | null = null;
  for (const tag of xml.matchAll(CUBE_TAG)) {
    const attrs = attributes(tag[1] ?? '');
    const time = attrs.get('time');
    if (time !== undefined) {
      current = isValidDate(time) ? (days.get(time) ?? new Map<string, number>()) : null;
      if (current) days.set(time, current);
      continue;
    }
    const currency = attrs.get('currency');
    const rate = attrs.get('rate');
    if (!current || currency === undefined || rate === undefined) continue;
    if (!/^[A-Z]{3}$/.test(currency) || currency === 'EUR' || !RATE.test(rate)) continue;
    const perEur = Number(rate);
    if (perEur > 0) current.set(currency, perEur);
  }
  return [...days.entries()]
    .filter(([, rates]) => rates.size > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([date, rates]) => ({
      date,
      rates: [...rates].map(([currency, per_eur]) => ({ currency, per_eur })),
    }));
}

function attributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.matchAll(ATTRIBUTE)) out.set(m[1] ?? '', (m[2] ?? m[3] ?? '').trim());
  return out;
}
