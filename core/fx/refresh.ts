import type { Knex } from 'knex';

import type { IsoDate } from '../domain/dates.ts';
import { parseEcbXml } from './parse.ts';
import { storeEcbDays } from './store.ts';

/** Where the ECB publishes its euro reference rates. */
export const ECB_BASE_URL = 'https://www.ecb.europa.eu/stats/eurofxref/';

/** The files: today's rates, the last 90 days, everything since 1999. */
export const ECB_FILES = {
  daily: 'eurofxref-daily.xml',
  '90d': 'eurofxref-hist-90d.xml',
  all: 'eurofxref-hist.xml',
} as const;

export interface RefreshOptions {
  /** The fetch to use (tests pass their own); default: the global one. */
  fetch?: typeof globalThis.fetch;
  /** The moment of the refresh; stamps the result and bounds accepted dates. Default: now. */
  now?: Date;
  /** Also download history: the last 90 days or everything. Default: only today's file. */
  history?: false | '90d' | 'all';
  /** Where the files are, ending in "/"; default: the ECB's address. Tests point it at a local server. */
  baseUrl?: string;
  /** Per file; default 20 s. */
  timeoutMs?: number;
}

export interface RefreshResult {
  /** True when every requested file was downloaded, read and stored. */
  ok: boolean;
  checked_at: string;
  /** Rate rows written (inserted or updated) and distinct days they cover. */
  rows: number;
  days: number;
  /** The newest day stored, or null. */
  latest: IsoDate | null;
  /** What went wrong, one line per failed file (for logs, not for people). */
  errors: string[];
}

/**
 * Downloads the ECB's reference rates and upserts them into `fx_rates`. Never throws: no network,
 * an HTTP error, a document without rates or a database failure all come back as `ok: false`
 * with the reason, keeping whatever other files did store. Run it daily (the ECB publishes around
 * 16:00 CET on working days) and once with history to back-fill.
 */
export async function refreshEcbRates(
  db: { knex: Knex },
  options: RefreshOptions = {},
): Promise<RefreshResult> {
  const now = options.now ?? new Date();
  const fetcher = options.fetch ?? globalThis.fetch;
  const base = options.baseUrl ?? ECB_BASE_URL;
  const files = [ECB_FILES.daily, ...(options.history ? [ECB_FILES[options.history]] : [])];
  // A day after the refresh's own date can only be garbage (the ECB publishes for the past).
  const latestAllowed = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
  const result: RefreshResult = {
    ok: true,
    checked_at: now.toISOString(),
    rows: 0,
    days: 0,
    latest: null,
    errors: [],
  };
  const seenDays = new Set<IsoDate>();
  for (const file of files) {
    try {
      const url = new URL(file, base).toString();
      const response = await fetcher(url, {
        signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
        headers: { accept: 'application/xml, text/xml' },
      });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const days = parseEcbXml(await response.text()).filter((d) => d.date <= latestAllowed);
      if (days.length === 0) throw new Error('no rates in the document');
      result.rows += await storeEcbDays(db.knex, days);
      for (const day of days) {
        seenDays.add(day.date);
        if (result.latest === null || day.date > result.latest) result.latest = day.date;
      }
    } catch (error) {
      result.ok = false;
      result.errors.push(`${file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  result.days = seenDays.size;
  return result;
}
