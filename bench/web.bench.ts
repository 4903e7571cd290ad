import { Agent, request } from 'node:http';

import { createEdge } from '../bot/http/app.ts';
import { listen } from '../bot/http/server.ts';
import { createMiniApp } from '../miniapp/server/index.ts';
import { BOT_TOKEN, signInitData } from '../test/miniapp/server/harness.ts';
import { largeHousehold } from './largeHousehold.ts';
import type { BenchRow, BenchSuite } from './types.ts';

/** Calls per round, and calls in flight at once (a few open screens; WEB_BENCH_CONCURRENCY changes it). */
const CALLS = 1_500;
const CONCURRENCY = Number(process.env.WEB_BENCH_CONCURRENCY ?? 8);
const ROUNDS = 5;

/** Calls per second of `call`, `CALLS` of them with `CONCURRENCY` in flight. */
async function throughput(call: () => Promise<unknown>): Promise<number> {
  let next = 0;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
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
 * `core.invoke('get_subscription')` in the same process, on a 500-subscription household. Rounds
 * alternate so warm-up and noise weigh on both. Target: the API at ≥ 0.8x the core's throughput.
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
      const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
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
      await throughput(viaApi);
      await throughput(viaCore);
      const api: number[] = [];
      const core: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        if (round % 2 === 0) {
          api.push(await throughput(viaApi));
          core.push(await throughput(viaCore));
        } else {
          core.push(await throughput(viaCore));
          api.push(await throughput(viaApi));
        }
      }
      const ratio = median(api) / median(core);
      return [
        {
          name: `POST /api/ops/get_subscription, loopback (${dialect})`,
          median: median(api),
          unit: 'calls/s',
          note: `${ratio.toFixed(2)}x core.invoke (target ≥ 0.8x); ${CONCURRENCY} in flight`,
        },
        {
          name: `core.invoke get_subscription, in process (${dialect})`,
          median: median(core),
          unit: 'calls/s',
          note: `${CONCURRENCY} in flight`,
        },
      ];
    } finally {
      await host.close();
      await home.close();
      miniApp.close();
    }
  },
};
