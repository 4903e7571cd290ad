import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildIsFresh, buildServer } from '../scripts/serverBuild.mjs';
import { FakeTelegram } from '../test/fakes/telegramBotApi.ts';
import { freePort } from '../test/helpers/exhaleProcess.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const BIN = fileURLToPath(new URL('../bin/exhale.mjs', import.meta.url));
const RUNS = 5;
const MODERN = '2026-07-28';

/** The resident memory of a process in MB, from /proc (Linux); NaN elsewhere. */
function residentMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/**
 * The CPU time a process has used, user and system, in ms, from /proc (Linux; NaN elsewhere): on a
 * machine shared with others it moves much less than the wall time to /healthz.
 */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime, fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

async function healthy(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** A stateless MCP `tools/list` (the 2026 revision, no session): milliseconds to its whole answer. */
async function toolsList(url: string, token: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/list',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'start-bench', version: '1' },
        },
      },
    }),
  });
  const text = await response.text();
  if (!response.ok || !text.includes('"tools"'))
    throw new Error(`tools/list failed: HTTP ${response.status} ${text.slice(0, 200)}`);
  return performance.now() - started;
}

/** What one start measured; `first`/`second` are the first two requests after /healthz, if asked. */
interface Started {
  ms: number;
  mb: number;
  /** CPU time used by then. */
  cpu: number;
  first?: number;
  second?: number;
  /** RSS once the first requests were answered (what was loaded after /healthz included). */
  mbAfter?: number;
}

/**
 * One `exhale` start: milliseconds from spawn to the first 200 of /healthz, and RSS then; with
 * `request`, the same request twice right after /healthz answered (the first one pays for
 * anything loaded after the start, the second shows the steady cost).
 */
async function startOnce(
  bin: string,
  env: NodeJS.ProcessEnv,
  request?: (url: string) => Promise<number>,
): Promise<Started> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [bin], {
    env: { ...env, EXHALE_PORT: String(port) },
    stdio: 'ignore',
  });
  try {
    const deadline = started + 30_000;
    while (!(await healthy(`http://127.0.0.1:${port}/healthz`))) {
      if (performance.now() > deadline || child.exitCode !== null)
        throw new Error('exhale did not answer /healthz within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const ms = performance.now() - started;
    const mb = residentMb(child.pid ?? 0);
    const cpu = cpuMs(child.pid ?? 0);
    if (!request) return { ms, mb, cpu };
    const url = `http://127.0.0.1:${port}`;
    const first = await request(url);
    const second = await request(url);
    return { ms, mb, cpu, first, second, mbAfter: residentMb(child.pid ?? 0) };
  } finally {
    await stop(child);
  }
}

/** A new person's first message to the bot (/start), answered by the bot: milliseconds. */
async function telegramReply(api: FakeTelegram, userId: number): Promise<number> {
  const user = api.user(userId);
  const chat = api.privateChat(user);
  const started = performance.now();
  await api.ask(user, '/start', chat);
  return performance.now() - started;
}

function runCommand(bin: string, env: NodeJS.ProcessEnv, args: string[]): Promise<number> {
  return runCommandOutput(bin, env, args).then((r) => r.ms);
}

function runCommandOutput(
  bin: string,
  env: NodeJS.ProcessEnv,
  args: string[],
): Promise<{ ms: number; stdout: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [bin, ...args], { env, timeout: 60_000 }, (error, stdout) =>
      error ? reject(error) : resolve({ ms: performance.now() - started, stdout }),
    );
  });
}

const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** One way of running `exhale`: a command line and its environment. */
interface Target {
  label: string;
  bin: string;
  env: NodeJS.ProcessEnv;
  /** Rows get the targets' aims in their notes (the build only). */
  aims?: boolean;
}

/**
 * `npm start` to /healthz and its memory, and a one-shot `exhale op`: the build against tsx; then,
 * for the build, what a first client meets right after /healthz: an MCP `tools/list`, and the
 * Telegram bot's first reply (a start with Telegram configured, on the fake Bot API). With
 * `EXHALE_BENCH_START_BASELINE=<another checkout, built>` (say, the commit before a change), that
 * checkout's `bin/exhale.mjs` is measured too, in alternation with this one, on the same data: a
 * before/after in one run.
 */
export const suite: BenchSuite = {
  name: 'start',
  async run(): Promise<BenchRow[]> {
    if (!buildIsFresh()) buildServer();
    const data = mkdtempSync(join(tmpdir(), 'exhale-bench-start-'));
    try {
      const base: NodeJS.ProcessEnv = {
        ...process.env,
        EXHALE_DATA_DIR: data,
        EXHALE_ECB_RATES: 'off',
        NODE_ENV: 'production',
      };
      delete base.EXHALE_DATABASE_URL;
      delete base.EXHALE_TELEGRAM_TOKEN;
      delete base.EXHALE_FROM_SOURCE;
      delete base.EXHALE_BENCH_START_BASELINE;
      await runCommand(BIN, base, ['demo']);
      const build: Target = { label: 'the build (dist/)', bin: BIN, env: base, aims: true };
      const baselineDir = process.env.EXHALE_BENCH_START_BASELINE;
      const baseline: Target | null = baselineDir
        ? { label: `baseline ${baselineDir}`, bin: join(baselineDir, 'bin/exhale.mjs'), env: base }
        : null;
      const firstClients = baseline ? [build, baseline] : [build];
      const targets = [
        ...firstClients,
        { label: 'from source (tsx)', bin: BIN, env: { ...base, EXHALE_FROM_SOURCE: '1' } },
      ];

      const starts = new Map<Target, Started[]>(targets.map((t) => [t, []]));
      const ops = new Map<Target, number[]>(targets.map((t) => [t, []]));
      // In alternation, so a noisy neighbour weighs on every target alike.
      for (let i = 0; i < RUNS; i += 1)
        for (const target of targets) {
          starts.get(target)?.push(await startOnce(target.bin, target.env));
          ops
            .get(target)
            ?.push(await runCommand(target.bin, target.env, ['op', 'get_totals', '{}']));
        }
      const rows: BenchRow[] = [];
      for (const target of targets) {
        const measured = starts.get(target) ?? [];
        rows.push({
          name: `exhale to /healthz, ${target.label}`,
          median: median(measured.map((s) => s.ms)),
          unit: 'ms',
          note: target.aims ? 'aim < 500 ms' : undefined,
        });
        rows.push({
          name: `  CPU time to /healthz, ${target.label}`,
          median: median(measured.map((s) => s.cpu)),
          unit: 'ms',
          note: 'user + system, all threads',
        });
        rows.push({
          name: `  resident memory after start, ${target.label}`,
          median: median(measured.map((s) => s.mb)),
          unit: 'MB',
          note: target.aims ? 'aim < 120 MB' : undefined,
        });
        rows.push({
          name: `  exhale op get_totals, ${target.label}`,
          median: median(ops.get(target) ?? []),
          unit: 'ms',
        });
      }

      const { stdout } = await runCommandOutput(BIN, base, [
        'token',
        'create',
        '--scope',
        'write',
        '--name',
        'start bench',
      ]);
      const token = /exh_[a-z0-9]+/.exec(stdout)?.[0];
      if (!token) throw new Error(`no token in: ${stdout}`);
      const api = await new FakeTelegram().start();
      try {
        const withTelegram = {
          ...base,
          EXHALE_TELEGRAM_TOKEN: api.token,
          EXHALE_TELEGRAM_API_ROOT: api.apiRoot,
        };
        const mcp = new Map<Target, Started[]>(firstClients.map((t) => [t, []]));
        const bot = new Map<Target, Started[]>(firstClients.map((t) => [t, []]));
        let user = 5000;
        for (let i = 0; i < RUNS; i += 1)
          for (const target of firstClients) {
            mcp
              .get(target)
              ?.push(await startOnce(target.bin, target.env, (url) => toolsList(url, token)));
            bot
              .get(target)
              ?.push(
                await startOnce(target.bin, { ...target.env, ...withTelegram }, () =>
                  telegramReply(api, (user += 1)),
                ),
              );
          }
        for (const target of firstClients) {
          const lists = mcp.get(target) ?? [];
          const replies = bot.get(target) ?? [];
          rows.push({
            name: `first /mcp tools/list right after /healthz, ${target.label}`,
            median: median(lists.map((s) => s.first ?? Number.NaN)),
            unit: 'ms',
            note: `the second: ${median(lists.map((s) => s.second ?? Number.NaN)).toFixed(1)} ms; RSS then ${median(lists.map((s) => s.mbAfter ?? Number.NaN)).toFixed(0)} MB`,
          });
          rows.push({
            name: `exhale to /healthz with Telegram on, ${target.label}`,
            median: median(replies.map((s) => s.ms)),
            unit: 'ms',
          });
          rows.push({
            name: `  first Telegram reply right after /healthz (/start), ${target.label}`,
            median: median(replies.map((s) => s.first ?? Number.NaN)),
            unit: 'ms',
            note: `the second: ${median(replies.map((s) => s.second ?? Number.NaN)).toFixed(1)} ms`,
          });
        }
      } finally {
        await api.stop();
      }
      return rows;
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  },
};
