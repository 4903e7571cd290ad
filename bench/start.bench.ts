import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { buildIsFresh, buildServer } from '../scripts/serverBuild.mjs';
import { freePort } from '../test/helpers/exhaleProcess.ts';
import type { BenchRow, BenchSuite } from './types.ts';

const BIN = fileURLToPath(new URL('../bin/exhale.mjs', import.meta.url));
const RUNS = 5;

/** The resident memory of a process in MB, from /proc (Linux); NaN elsewhere. */
function residentMb(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
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

/** One `exhale` start: milliseconds from spawn to the first 200 of /healthz, and RSS then. */
async function startOnce(env: NodeJS.ProcessEnv): Promise<{ ms: number; mb: number }> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [BIN], {
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
    return { ms, mb: residentMb(child.pid ?? 0) };
  } finally {
    await stop(child);
  }
}

function runCommand(env: NodeJS.ProcessEnv, args: string[]): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, ...args], { env, timeout: 60_000 }, (error) =>
      error ? reject(error) : resolve(performance.now() - started),
    );
  });
}

const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** `npm start` to /healthz and its memory, and a one-shot `exhale op`: the build against tsx. */
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
      await runCommand(base, ['demo']);
      const rows: BenchRow[] = [];
      for (const [label, env] of [
        ['the build (dist/)', base],
        ['from source (tsx)', { ...base, EXHALE_FROM_SOURCE: '1' }],
      ] as const) {
        const starts: Array<{ ms: number; mb: number }> = [];
        const ops: number[] = [];
        for (let i = 0; i < RUNS; i += 1) {
          starts.push(await startOnce(env));
          ops.push(await runCommand(env, ['op', 'get_totals', '{}']));
        }
        rows.push({
          name: `exhale to /healthz, ${label}`,
          median: median(starts.map((s) => s.ms)),
          unit: 'ms',
          note: label.startsWith('the build') ? 'aim < 500 ms' : undefined,
        });
        rows.push({
          name: `  resident memory after start, ${label}`,
          median: median(starts.map((s) => s.mb)),
          unit: 'MB',
          note: label.startsWith('the build') ? 'aim < 120 MB' : undefined,
        });
        rows.push({ name: `  exhale op get_totals, ${label}`, median: median(ops), unit: 'ms' });
      }
      return rows;
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  },
};
