import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

import { Hono } from 'hono';

import { createEdge, type EdgeEnv } from '../bot/http/app.ts';
import { listen } from '../bot/http/server.ts';
import { createMiniApp } from '../miniapp/server/index.ts';
import { BOT_TOKEN, signInitData } from '../test/miniapp/server/harness.ts';
import { inLoopClient, LoadWorker, throughput } from './httpLoad.mjs';
import { largeHousehold } from './largeHousehold.ts';
import { benchPostgresUrl, type BenchRow, type BenchSuite } from './types.ts';

/**
 * Calls per round, and the calls in flight at once measured in the same run (one screen, a few
 * open screens, a busy household; WEB_BENCH_CONCURRENCY="1,8,32" changes them).
 */
const CALLS = 1_500;
const CONCURRENCY = (process.env.WEB_BENCH_CONCURRENCY ?? '1,8,32')
  .split(',')
  .map(Number)
  .filter((n) => Number.isInteger(n) && n > 0);
const ROUNDS = 7;

/**
 * CPU time of this process's main thread (the server's, with the client in a worker), in ms, from
 * Linux's /proc (utime + stime, in 10 ms clock ticks); null elsewhere. Unlike calls per second it
 * counts only the time the thread ran, so a busy neighbour on a shared machine hardly moves it.
 */
function mainThreadCpuMs(): number | null {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/**
 * The Mini App's API against the core it calls: `POST /api/ops/get_subscription` over loopback
 * (a real listener, keep-alive, init data checked on every call, the member looked up) against
 * `core.invoke('get_subscription')` in the same process, on a 500-subscription household, with 1, 8
 * and 32 calls in flight. Rounds alternate so warm-up and noise weigh on both. Target: the API at
 * ≥ 0.8x the core's throughput at every level.
 *
 * The load generator that is held to the target runs in a worker thread of this process, as HTTP
 * benchmarks run their client beside the server (wrk, autocannon), and is as lean as theirs
 * (`httpLoad.mjs`: the request's bytes made once, an answer read by its Content-Length): on the
 * server's own event loop, node:http's client (building each request, parsing each answer) costs
 * about what the server does per call, and it was counted against the API, though a real client
 * runs in a browser on another machine. The old figure (node:http's client on the server's event
 * loop) is still measured and printed ("client in the server's loop"), so nothing is hidden. The
 * three ways alternate round by round. The notes add each way's main-thread CPU per call
 * (Linux), which a noisy neighbour hardly moves: with the client in the worker it is the
 * server's own cost, set against the core's.
 *
 * A fourth way, "HTTP floor", is the same request to a route of the same edge that answers the
 * API's own answer bytes without auth or op: the cost of HTTP, the edge and the lean client alone.
 * A fifth, "node:http floor", is a bare node:http server of this process that reads the request's
 * JSON and answers those bytes: no framework, no edge, no auth, no op; the least any HTTP API on
 * Node does per call. Its ratio to the core bounds what the API could ever reach here.
 * The HTTP floor's note sets the API's main-thread CPU per call against floor + core: what is left over is the
 * cost of running the two on one thread, which profiles (`node --cpu-prof`) show as the same
 * functions (knex, node-sqlite3's callbacks, zod) taking 1.5–3x longer per call than in the core's
 * tight loop; the SQL of a call is the same on both sides (one SELECT; the member, acting-household
 * and account lookups come from the read cache, and one `PRAGMA data_version` serves several calls).
 */
export const suite: BenchSuite = {
  name: 'web',
  async run(): Promise<BenchRow[]> {
    const url = benchPostgresUrl();
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
    // The HTTP floor (see above): filled with the API's answer once the household is linked.
    let canned = '';
    const floor = new Hono<EdgeEnv>();
    floor.post('/', async (c) => {
      await c.req.json();
      return c.body(canned, 200, { 'content-type': 'application/json' });
    });
    edge.mount('/floor', floor);
    const host = await listen(edge, { port: 0 });
    const bare = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        JSON.parse(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(canned),
        });
        res.end(canned);
      });
    });
    await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
    const bareAddress = bare.address();
    const barePort = bareAddress && typeof bareAddress === 'object' ? bareAddress.port : 0;
    const workers: LoadWorker[] = [];
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
      const load = {
        url: `${host.url}/api/ops/get_subscription`,
        body,
        headers: {
          authorization: `tma ${initData}`,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        },
      };
      const inLoop = inLoopClient(load);
      const worker = new LoadWorker(load);
      workers.push(worker);
      const first = await fetch(load.url, { method: 'POST', headers: load.headers, body });
      canned = await first.text();
      if (first.status !== 200) throw new Error(`the API answered ${first.status}: ${canned}`);
      const floorWorker = new LoadWorker({ ...load, url: `${host.url}/floor` });
      workers.push(floorWorker);
      const viaFloor = (inFlight: number) => floorWorker.round({ inFlight, calls: CALLS });
      const bareWorker = new LoadWorker({ ...load, url: `http://127.0.0.1:${barePort}/` });
      workers.push(bareWorker);
      const viaBare = (inFlight: number) => bareWorker.round({ inFlight, calls: CALLS });
      const viaWorker = (inFlight: number) => worker.round({ inFlight, calls: CALLS });
      const viaLoop = (inFlight: number) => inLoop({ inFlight, calls: CALLS });
      const viaCore = (inFlight: number) =>
        throughput(
          () => home.core.invoke('get_subscription', actor, { id }, { surface: 'web' }),
          inFlight,
          CALLS,
        );
      const rows: BenchRow[] = [];
      for (const inFlight of CONCURRENCY) {
        const ways = {
          worker: viaWorker,
          loop: viaLoop,
          core: viaCore,
          floor: viaFloor,
          bare: viaBare,
        };
        const measured: Record<keyof typeof ways, number[]> = {
          worker: [],
          loop: [],
          core: [],
          floor: [],
          bare: [],
        };
        const cpuMs: Record<keyof typeof ways, number> = {
          worker: 0,
          loop: 0,
          core: 0,
          floor: 0,
          bare: 0,
        };
        for (const way of Object.values(ways)) await way(inFlight);
        for (let round = 0; round < ROUNDS; round += 1) {
          const order = (['worker', 'loop', 'core', 'floor', 'bare'] as const).slice();
          if (round % 2 === 1) order.reverse();
          for (const way of order) {
            const before = mainThreadCpuMs();
            measured[way].push(await ways[way](inFlight));
            const after = mainThreadCpuMs();
            if (before !== null && after !== null) cpuMs[way] += after - before;
          }
        }
        const core = median(measured.core);
        const ratio = (way: keyof typeof ways) => (median(measured[way]) / core).toFixed(2);
        // Main-thread CPU per call, in µs (ms over ROUNDS × CALLS calls).
        const perCall = (way: keyof typeof ways) =>
          Math.round((cpuMs[way] * 1000) / (ROUNDS * CALLS));
        const cpu = (way: keyof typeof ways) =>
          mainThreadCpuMs() === null ? '' : `; main thread ${perCall(way)} µs/call`;
        const sum =
          mainThreadCpuMs() === null
            ? ''
            : `; floor + core = ${perCall('floor') + perCall('core')} µs/call against the API's ${perCall('worker')}`;
        rows.push(
          {
            name: `POST /api/ops/get_subscription, loopback, ${inFlight} in flight (${dialect})`,
            median: median(measured.worker),
            unit: 'calls/s',
            note: `${ratio('worker')}x core.invoke (target ≥ 0.8x); lean client in a worker thread${cpu('worker')}`,
          },
          {
            name: `  the same, client in the server's loop, ${inFlight} in flight (${dialect})`,
            median: median(measured.loop),
            unit: 'calls/s',
            note: `${ratio('loop')}x core.invoke; the client's CPU counted against the API${cpu('loop')}`,
          },
          {
            name: `core.invoke get_subscription, ${inFlight} in flight (${dialect})`,
            median: core,
            unit: 'calls/s',
            note: cpu('core').slice(2),
          },
          {
            name: `  HTTP floor: the same request and answer, no auth or op, ${inFlight} in flight (${dialect})`,
            median: median(measured.floor),
            unit: 'calls/s',
            note: `lean client in a worker thread${cpu('floor')}${sum}`,
          },
          {
            name: `  node:http floor: a bare server answering the same bytes, ${inFlight} in flight (${dialect})`,
            median: median(measured.bare),
            unit: 'calls/s',
            note: `${ratio('bare')}x core.invoke with no framework, auth or op: the most any HTTP API could reach${cpu('bare')}`,
          },
        );
      }
      return rows;
    } finally {
      for (const worker of workers) await worker.close();
      await new Promise((resolve) => bare.close(resolve));
      await host.close();
      await home.close();
      miniApp.close();
    }
  },
};
