import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { ECB_FILES, refreshEcbRates } from '../../../core/fx/refresh.ts';
import type { Database } from '../../../core/store/connection.ts';
import { openTestDatabase } from '../../helpers/testCore.ts';
import { readEcbFixture } from './fixtures.ts';

/** A stand-in for the ECB on 127.0.0.1: each path answers with the body or status set for it. */
let server: Server;
let baseUrl: string;
const routes = new Map<string, { status: number; body: string }>();
const requested: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requested.push(req.url ?? '');
    const route = routes.get(req.url ?? '');
    res.writeHead(route?.status ?? 404, { 'content-type': 'text/xml' });
    res.end(route?.body ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/stats/eurofxref/`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A history file as the ECB writes it (newest day first) from daily files. */
function historyFile(...daily: string[]): string {
  const days = daily.flatMap((xml) => xml.match(/<Cube time='[^']*'>[\s\S]*?<\/Cube>/g) ?? []);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><Cube>${days.join('\n')}</Cube></gesmes:Envelope>`;
}

describe('refreshEcbRates', () => {
  let db: Database;
  const now = new Date('2024-06-28T17:00:00Z');
  beforeEach(async () => {
    db = await openTestDatabase();
    routes.clear();
    requested.length = 0;
  });
  afterEach(async () => db.close());

  const stored = async (): Promise<
    Array<{ date: string; currency: string; per_eur: number; household_id: string; source: string }>
  > =>
    db
      .knex('fx_rates')
      .orderBy(['date', 'currency'])
      .select('date', 'currency', 'per_eur', 'household_id', 'source');

  it('downloads the daily file and stores each rate as a shared ECB row', async () => {
    routes.set(`/stats/eurofxref/${ECB_FILES.daily}`, {
      status: 200,
      body: readEcbFixture('eurofxref-2024-06-28.xml'),
    });
    const result = await refreshEcbRates(db, { baseUrl, now });
    expect(result).toMatchObject({
      ok: true,
      rows: 30,
      days: 1,
      latest: '2024-06-28',
      errors: [],
      checked_at: now.toISOString(),
    });
    const rows = await stored();
    expect(rows).toHaveLength(30);
    expect(rows.find((r) => r.currency === 'USD')).toEqual({
      date: '2024-06-28',
      currency: 'USD',
      per_eur: 1.0705,
      household_id: '',
      source: 'ecb',
    });
    expect(requested).toEqual([`/stats/eurofxref/${ECB_FILES.daily}`]);
  });

  it('also downloads the 90-day history when asked, and a second refresh updates rows instead of duplicating them', async () => {
    const history = historyFile(
      readEcbFixture('eurofxref-2024-06-28.xml'),
      readEcbFixture('eurofxref-2024-03-13.xml'),
    );
    routes.set(`/stats/eurofxref/${ECB_FILES.daily}`, {
      status: 200,
      body: readEcbFixture('eurofxref-2024-06-28.xml'),
    });
    routes.set(`/stats/eurofxref/${ECB_FILES['90d']}`, { status: 200, body: history });
    const first = await refreshEcbRates(db, { baseUrl, now, history: '90d' });
    expect(first).toMatchObject({ ok: true, days: 2, latest: '2024-06-28' });
    expect(await stored()).toHaveLength(60);
    routes.set(`/stats/eurofxref/${ECB_FILES.daily}`, {
      status: 200,
      body: readEcbFixture('eurofxref-2024-06-28.xml').replace("rate='1.0705'", "rate='1.0712'"),
    });
    await refreshEcbRates(db, { baseUrl, now });
    const rows = await stored();
    expect(rows).toHaveLength(60);
    expect(rows.filter((r) => r.currency === 'USD').map((r) => r.per_eur)).toEqual([
      1.0939, 1.0712,
    ]);
  });

  it('reports an HTTP error or a document without rates as a failure and stores nothing', async () => {
    routes.set(`/stats/eurofxref/${ECB_FILES.daily}`, { status: 503, body: 'busy' });
    const busy = await refreshEcbRates(db, { baseUrl, now });
    expect(busy).toMatchObject({ ok: false, rows: 0, latest: null });
    expect(busy.errors[0]).toContain('HTTP 503');
    routes.set(`/stats/eurofxref/${ECB_FILES.daily}`, {
      status: 200,
      body: '<html>maintenance</html>',
    });
    const empty = await refreshEcbRates(db, { baseUrl, now });
    expect(empty.ok).toBe(false);
    expect(empty.errors[0]).toContain('no rates');
    expect(await stored()).toHaveLength(0);
  });

  it('never throws without a network: a refused connection or a failing fetch comes back as ok false', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await refreshEcbRates(db, {
      baseUrl: `http://127.0.0.1:${port}/`,
      now,
      history: 'all',
    });
    expect(refused.ok).toBe(false);
    expect(refused.errors).toHaveLength(2);
    const offline = await refreshEcbRates(db, {
      now,
      fetch: () =>
        Promise.reject(new TypeError('fetch failed: getaddrinfo ENOTFOUND www.ecb.europa.eu')),
    });
    expect(offline).toMatchObject({ ok: false, rows: 0 });
    expect(offline.errors[0]).toContain('ENOTFOUND');
    expect(await stored()).toHaveLength(0);
  });

  it('gives up on a server that does not answer within the timeout', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const result = await refreshEcbRates(db, {
        baseUrl: `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`,
        now,
        timeoutMs: 200,
      });
      expect(result.ok).toBe(false);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('ignores days after the refresh date as garbage', async () => {
    routes.set(`/stats/eurofxref/${ECB_FILES.daily}`, {
      status: 200,
      body: readEcbFixture('eurofxref-2024-06-28.xml'),
    });
    const result = await refreshEcbRates(db, { baseUrl, now: new Date('2024-06-20T12:00:00Z') });
    expect(result.ok).toBe(false);
    expect(await stored()).toHaveLength(0);
  });
});
