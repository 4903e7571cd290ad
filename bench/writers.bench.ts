import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import knex, { type Knex } from 'knex';

import {
  type ExhaleServer,
  householdWithToken,
  runExhale,
  startExhaleProcess,
} from '../test/helpers/exhaleProcess.ts';
import { auditEntries, chainBreaks, restoredBefore } from './auditChain.ts';
import { startRoundRobin } from './roundRobin.ts';
import type { BenchRow, BenchSuite } from './types.ts';

/**
 * 50 concurrent MCP writers over HTTP against real `exhale` processes (issue 14, "Measured"): on
 * SQLite with one process, on SQLite with an `exhale op` CLI writing beside it, and on PostgreSQL
 * (EXHALE_BENCH_PG_URL or EXHALE_TEST_DATABASE_URL) with one process and with two behind a
 * round-robin proxy. Half the writers create subscriptions (each name once), half update five
 * shared rows (notes and vendor, the pair that used to lose a before-image). Afterwards: writes
 * acknowledged against rows written, failures, p50/p99, the audit chain (every before equals the
 * previous after of its row) and a sample of undos, newest first, each restoring exactly.
 */
const WRITERS = 50;
const SHARED_ROWS = 5;
const UNDO_SAMPLE = 12;
const FULL = process.env.BENCH_FULL === '1';
const SECONDS = Number(process.env.EXHALE_BENCH_WRITERS_SECONDS ?? (FULL ? 30 : 3));
/** Any one request past this is a failure, never a hang. */
const REQUEST_LIMIT_MS = 30_000;
const MODERN = '2026-07-28';
const PG_URL = process.env.EXHALE_BENCH_PG_URL ?? process.env.EXHALE_TEST_DATABASE_URL;

interface CallResult {
  ok: boolean;
  structured: Record<string, unknown> | null;
  error: string | null;
}

/** One 2026-era tools/call over HTTP, read back whether it came as JSON or as an SSE stream. */
async function callTool(
  url: string,
  token: string,
  name: string,
  args: Record<string, unknown>,
): Promise<CallResult> {
  try {
    const response = await fetch(`${url}/mcp`, {
      method: 'POST',
      signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': name,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name,
          arguments: args,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities': {},
            'io.modelcontextprotocol/clientInfo': { name: 'writers-bench', version: '1' },
          },
        },
      }),
    });
    const text = await response.text();
    if (!response.ok) return { ok: false, structured: null, error: `HTTP ${response.status}` };
    const json = text.trimStart().startsWith('{')
      ? text
      : (text
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .at(-1)
          ?.slice('data: '.length) ?? '{}');
    // A JSON-RPC response; every field read below is checked before use.
    const message = JSON.parse(json) as {
      result?: {
        isError?: boolean;
        structuredContent?: Record<string, unknown>;
        content?: Array<{ text?: string }>;
      };
      error?: { message?: string };
    };
    if (message.error) return { ok: false, structured: null, error: message.error.message ?? '?' };
    if (message.result?.isError || !message.result?.structuredContent)
      return {
        ok: false,
        structured: null,
        error: message.result?.content?.[0]?.text ?? 'no structuredContent',
      };
    return { ok: true, structured: message.result.structuredContent, error: null };
  } catch (error) {
    return { ok: false, structured: null, error: error instanceof Error ? error.message : '?' };
  }
}

/** A database for one scenario: the environment `exhale` needs, a handle to check it, cleanup. */
interface Target {
  label: string;
  env: Record<string, string>;
  open(): Knex;
  drop(): Promise<void>;
}

function sqliteTarget(label: string): Target {
  const dir = mkdtempSync(path.join(tmpdir(), 'exhale-writers-'));
  return {
    label,
    env: { EXHALE_DATA_DIR: dir },
    open: () =>
      knex({
        client: 'sqlite3',
        connection: { filename: path.join(dir, 'exhale.sqlite') },
        useNullAsDefault: true,
      }),
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function postgresTarget(label: string, base: string): Promise<Target> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: base });
  await admin.raw(`create schema ${schema}`);
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    label,
    env: { EXHALE_DATABASE_URL: url.toString() },
    open: () => knex({ client: 'pg', connection: base, searchPath: [schema] }),
    drop: async () => {
      await admin.raw(`drop schema ${schema} cascade`);
      await admin.destroy();
    },
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

interface Outcome {
  acked: number;
  written: number;
  /** Acknowledged creates with no row. */
  lost: number;
  failures: number;
  firstFailure: string | null;
  p50: number;
  p99: number;
  cli: { acked: number; written: number; failures: number; firstFailure: string | null } | null;
  chain: { changes: number; breaks: number; example: string | null };
  undone: number;
  restored: number;
}

/** `exhale op create_tag` in a loop beside the server until `until`, as a person at a terminal. */
async function cliBeside(
  env: Record<string, string>,
  until: number,
): Promise<{ names: string[]; failures: number; firstFailure: string | null }> {
  const names: string[] = [];
  let failures = 0;
  let firstFailure: string | null = null;
  for (let n = 0; performance.now() < until; n += 1) {
    const name = `cli-${n}`;
    const run = await runExhale(env, ['op', 'create_tag', JSON.stringify({ name })]);
    if (run.code === 0) names.push(name);
    else {
      failures += 1;
      firstFailure ??= (run.stderr || run.stdout).trim().split('\n')[0] ?? `exit ${run.code}`;
    }
  }
  return { names, failures, firstFailure };
}

async function scenario(target: Target, processes: 1 | 2, withCli: boolean): Promise<Outcome> {
  const token = await householdWithToken(target.env, 'trusted');
  const servers: ExhaleServer[] = await Promise.all(
    Array.from({ length: processes }, () => startExhaleProcess(target.env)),
  );
  const proxy = processes > 1 ? await startRoundRobin(servers.map((s) => s.url)) : null;
  const url = proxy?.url ?? servers[0]?.url ?? '';
  const db = target.open();
  try {
    const shared: string[] = [];
    for (let i = 0; i < SHARED_ROWS; i += 1) {
      const created = await callTool(url, token, 'create_subscription', {
        name: `shared-${i}`,
        amount: '9.99',
      });
      if (!created.structured) throw new Error(`could not seed: ${created.error ?? '?'}`);
      shared.push(String(created.structured.id));
    }
    const auditBefore = Number((await db('audit_entries').count({ n: '*' }).first())?.n ?? 0);
    const latencies: number[] = [];
    const createdNames = new Set<string>();
    let updatesAcked = 0;
    let failures = 0;
    let firstFailure: string | null = null;
    const until = performance.now() + SECONDS * 1000;
    const cli = withCli ? cliBeside(target.env, until) : null;
    await Promise.all(
      Array.from({ length: WRITERS }, async (_, writer) => {
        for (let n = 0; performance.now() < until; n += 1) {
          const creating = writer % 2 === 0;
          const name = `w${writer}-${n}`;
          const args = creating
            ? { name, amount: '4.99' }
            : n % 2 === 0
              ? { id: shared[(writer + n) % SHARED_ROWS], notes: name }
              : { id: shared[(writer + n) % SHARED_ROWS], vendor: name };
          const started = performance.now();
          const result = await callTool(
            url,
            token,
            creating ? 'create_subscription' : 'update_subscription',
            args,
          );
          latencies.push(performance.now() - started);
          if (!result.ok) {
            failures += 1;
            firstFailure ??= result.error;
          } else if (creating) createdNames.add(name);
          else updatesAcked += 1;
        }
      }),
    );
    const beside = cli ? await cli : null;
    const createdRows: Array<{ name: string }> = await db('subscriptions')
      .select('name')
      .where('name', 'like', 'w%-%');
    const updateEntries = Number(
      (
        await db('audit_entries')
          .where('op', 'update_subscription')
          .andWhere('seq', '>', auditBefore)
          .count({ n: '*' })
          .first()
      )?.n ?? 0,
    );
    const cliRows = beside
      ? Number((await db('tags').where('name', 'like', 'cli-%').count({ n: '*' }).first())?.n ?? 0)
      : 0;
    // An acknowledged create is a row and an acknowledged update one audit entry (the values
    // written are all different, so no update is acknowledged without changing anything).
    const rowNames = new Set(createdRows.map((row) => row.name));
    const lost = [...createdNames].filter((name) => !rowNames.has(name)).length;
    const written = createdRows.length + updateEntries;
    const entries = await auditEntries(db);
    const chain = chainBreaks(entries);
    // Undo the newest entries one by one, newest first: each must apply and restore exactly.
    let undone = 0;
    let restored = 0;
    for (const entry of entries.slice(-UNDO_SAMPLE).reverse()) {
      const result = await callTool(url, token, 'undo', { ids: [entry.id] });
      if (!result.ok) {
        firstFailure ??= `undo ${entry.op}: ${result.error ?? '?'}`;
        continue;
      }
      undone += 1;
      if (await restoredBefore(db, entry)) restored += 1;
    }
    latencies.sort((a, b) => a - b);
    return {
      acked: createdNames.size + updatesAcked,
      written,
      lost,
      failures,
      firstFailure,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      cli: beside
        ? {
            acked: beside.names.length,
            written: cliRows,
            failures: beside.failures,
            firstFailure: beside.firstFailure,
          }
        : null,
      chain,
      undone,
      restored,
    };
  } finally {
    await db.destroy();
    await proxy?.close();
    for (const server of servers) server.kill('SIGTERM');
    await Promise.all(servers.map((server) => server.exited));
  }
}

const round = (n: number): number => Number(n.toFixed(1));

export const suite: BenchSuite = {
  name: 'writers',
  async run(): Promise<BenchRow[]> {
    const plans: Array<{ make: () => Promise<Target>; processes: 1 | 2; cli: boolean }> = [
      { make: async () => sqliteTarget('SQLite, 1 process'), processes: 1, cli: false },
      {
        make: async () => sqliteTarget('SQLite, 1 process + exhale op CLI'),
        processes: 1,
        cli: true,
      },
    ];
    if (PG_URL)
      plans.push(
        { make: () => postgresTarget('PostgreSQL, 1 process', PG_URL), processes: 1, cli: false },
        {
          make: () => postgresTarget('PostgreSQL, 2 processes, round robin', PG_URL),
          processes: 2,
          cli: false,
        },
      );
    const rows: BenchRow[] = [];
    for (const plan of plans) {
      const target = await plan.make();
      try {
        const o = await scenario(target, plan.processes, plan.cli);
        const rate = o.acked / SECONDS;
        const cli = o.cli
          ? `; CLI beside: ${o.cli.acked} acknowledged = ${o.cli.written} tags, ${o.cli.failures} failures${o.cli.firstFailure ? ` (${o.cli.firstFailure})` : ''}`
          : '';
        rows.push({
          name: `writers: ${WRITERS} MCP writers over HTTP, ${target.label}`,
          median: round(rate),
          unit: 'writes/s',
          note:
            `${SECONDS} s${FULL ? '' : ' (BENCH_FULL=1 runs 30 s)'}: ${o.acked} acknowledged, ${o.written} written${o.lost ? ` (${o.lost} acknowledged creates missing)` : ''}, ${o.failures} failures` +
            `${o.firstFailure ? ` (first: ${o.firstFailure})` : ''}, p50 ${round(o.p50)} ms, p99 ${round(o.p99)} ms${cli}; ` +
            `audit: ${o.chain.breaks} of ${o.chain.changes} changes off the chain${o.chain.example ? ` (${o.chain.example})` : ''}, ` +
            `${o.restored} of ${UNDO_SAMPLE} sampled undos restored exactly (${o.undone} applied)`,
        });
      } finally {
        await target.drop();
      }
    }
    if (!PG_URL)
      rows.push({
        name: 'writers: PostgreSQL scenarios',
        median: 0,
        unit: 'skipped',
        note: 'set EXHALE_BENCH_PG_URL (or EXHALE_TEST_DATABASE_URL) to run them',
      });
    return rows;
  },
};
