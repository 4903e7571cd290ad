import { Agent, request } from 'node:http';

import { createEdge } from '../bot/http/app.ts';
import { listen } from '../bot/http/server.ts';
import { createMiniApp } from '../miniapp/server/index.ts';
import { BOT_TOKEN, signInitData } from '../test/miniapp/server/harness.ts';
import { largeHousehold } from './largeHousehold.ts';
import type { BenchRow, BenchSuite } from './types.ts';

/**
 * Calls per round, and the calls in flight at once measured in the same run (one screen, a few
 * open screens, a busy household; WEB_BENCH_CONCURRENCY="1,8,32" changes them).
 */
const CALLS = 1_500;
const CONCURRENCY = (process.env.WEB_BENCH_CONCURRENCY ?? '1,8,32')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);
const ROUNDS = 5;

/** Calls per second of `call`, `CALLS` of them with `inFlight` in flight. */
async function throughput(call: () => Promise<unknown>, inFlight: number): Promise<number> {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < CALLS) {
        next += 1;
        await call();
      }
    }),
  );
  return CALLS / (Number(process.hrtime.bigint() - start) / 1e9);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/**
 * The Mini App's API against the core it calls: `POST /api/ops/get_subscription` over loopback
 * (a real listener, keep-alive, init data checked on every call, the member looked up) against
 * `core.invoke('get_subscription')` in the same process, on a 500-subscription household, with 1, 8
 * and 32 calls in flight. Rounds alternate so warm-up and noise weigh on both. Target: the API at
 * ≥ 0.8x the core's throughput at every level.
 */
export const suite: BenchSuite = {
  name: 'web',
  async run(): Promise<BenchRow[]> {
    const url = process.env.EXHALE_BENCH_DATABASE_URL;
    const dialect = url ? 'postgres' : 'sqlite';
    const home = await largeHousehold({ subscriptions: 500, charges: 0, url });
    const edge = createEdge({ log: () => {} });
    const miniApp = createMiniApp({
      core: home.core,
      botToken: BOT_TOKEN,
      appDir: '/nonexistent',
      log: () => {},
    });
    edge.mount('/api', miniApp.api);
    const host = await listen(edge, { port: 0 });
    try {
      await home.db.knex('member_identities').insert({
        id: 'telegram:7001',
        member_id: home.owner.memberId ?? '',
        platform: 'telegram',
        external_id: '7001',
        position: 0,
        created_at: new Date().toISOString(),
      });
      const id = home.subscriptionIds[42] ?? '';
      const initData = signInitData({ user: { id: 7001 }, authDate: new Date() });
      const body = JSON.stringify({ input: { id } });
      const actor = { ...home.owner, channel: 'web' as const };
      // node:http with keep-alive: the lightest client, so the figure is the server's cost.
      const agent = new Agent({ keepAlive: true, maxSockets: Math.max(...CONCURRENCY) });
      const target = new URL(`${host.url}/api/ops/get_subscription`);
      const headers = {
        authorization: `tma ${initData}`,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
      };
      const viaApi = () =>
        new Promise<void>((resolve, reject) => {
          const req = request(target, { method: 'POST', agent, headers }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => {
              if (res.statusCode !== 200) reject(new Error(`api answered ${res.statusCode}`));
              else resolve(void JSON.parse(Buffer.concat(chunks).toString('utf8')));
            });
          });
          req.on('error', reject);
          req.end(body);
        });
      const viaCore = () => home.core.invoke('get_subscription', actor, { id }, { surface: 'web' });
      const rows: BenchRow[] = [];
      for (const inFlight of CONCURRENCY) {
        await throughput(viaApi, inFlight);
        await throughput(viaCore, inFlight);
        const api: number[] = [];
        const core: number[] = [];
        for (let round = 0; round < ROUNDS; round += 1) {
          if (round % 2 === 0) {
            api.push(await throughput(viaApi, inFlight));
            core.push(await throughput(viaCore, inFlight));
          } else {
            core.push(await throughput(viaCore, inFlight));
            api.push(await throughput(viaApi, inFlight));
          }
        }
        const ratio = median(api) / median(core);
        rows.push(
          {
            name: `POST /api/ops/get_subscription, loopback, ${inFlight} in flight (${dialect})`,
            median: median(api),
            unit: 'calls/s',
            note: `${ratio.toFixed(2)}x core.invoke (target ≥ 0.8x)`,
          },
          {
            name: `core.invoke get_subscription, ${inFlight} in flight (${dialect})`,
            median: median(core),
            unit: 'calls/s',
          },
        );
      }
      return rows;
    } finally {
      await host.close();
      await home.close();
      miniApp.close();
    }
  },
};
