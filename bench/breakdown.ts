import type { Knex } from 'knex';

import { Core } from '../core/kernel/core.ts';
import type { Actor } from '../core/kernel/actor.ts';
import type { AnyOp, OpContext } from '../core/kernel/op.ts';
import { catalog } from '../core/ops/catalog.ts';
import type { Database } from '../core/store/connection.ts';
import type { BenchRow } from './types.ts';

/**
 * Where one read op's time goes, measured by timing hooks that exist only in the bench (nothing in
 * core/ is instrumented): every driver round trip (knex's client `_query`, the one method every
 * query of knex's runner goes through, and SQLite's prepared freshness check, `db.dataVersion`), the op's own `run` (what is left of it once its SQL is
 * taken out is the series and domain code), the kernel (the whole `invoke` minus the op's run and
 * minus the SQL the kernel sends itself: policy, input parse, authorization, the membership
 * lookup's cache), and serialization (the output schema's parse and `JSON.stringify`, what a
 * surface does with the result). Calls run one after another, so the hooks never overlap.
 */
export interface Breakdown {
  totalMs: number;
  sqlMs: number;
  domainMs: number;
  kernelMs: number;
  serializeMs: number;
  queries: number;
}

/** The part of knex's client the hooks wrap: knex declares `client` as `any`. */
interface QueryingClient {
  _query(connection: unknown, query: unknown): Promise<unknown>;
}

/** A Core over `db` whose ops' `run` and whose driver round trips are timed into the counters. */
function instrumented(db: Database): {
  core: Core<typeof catalog>;
  counters: { sql: number; queries: number; run: number; sqlInRun: number };
  restore(): void;
} {
  const counters = { sql: 0, queries: 0, run: 0, sqlInRun: 0 };
  let inRun = false;
  const client = (db.knex as Knex & { client: QueryingClient }).client;
  const original = client._query.bind(client);
  client._query = async (connection: unknown, query: unknown) => {
    const start = performance.now();
    try {
      return await original(connection, query);
    } finally {
      const ms = performance.now() - start;
      counters.sql += ms;
      counters.queries += 1;
      if (inRun) counters.sqlInRun += ms;
    }
  };
  // SQLite's freshness check goes to the driver beside knex (core/store/dataVersion.ts): one more
  // round trip, timed the same way.
  const probe = db.dataVersion;
  const probeRead = probe?.read;
  if (probe && probeRead) {
    probe.read = () => {
      // Timed from before the call: node-sqlite3 schedules the statement synchronously.
      const start = performance.now();
      const sent = probeRead.call(probe);
      if (sent === null) return null;
      const wasInRun = inRun;
      return sent.finally(() => {
        const ms = performance.now() - start;
        counters.sql += ms;
        counters.queries += 1;
        if (wasInRun) counters.sqlInRun += ms;
      });
    };
  }
  const timedCatalog = catalog.map((op) => {
    const spec = op as AnyOp;
    return {
      ...spec,
      run: async (ctx: OpContext, input: never) => {
        const start = performance.now();
        inRun = true;
        try {
          return await spec.run(ctx, input);
        } finally {
          inRun = false;
          counters.run += performance.now() - start;
        }
      },
    };
  }) as unknown as typeof catalog; // the same ops, each with its run wrapped: the catalog's own shape
  // Production's setting: outputs are not parsed in the kernel (serialization times that parse).
  const core = new Core({ db, catalog: timedCatalog, validateOutputs: false });
  return {
    core,
    counters,
    restore: () => {
      delete (client as Partial<QueryingClient>)._query; // back to the prototype's method
      if (probe) delete (probe as Partial<typeof probe>).read; // back to the class's method
    },
  };
}

/**
 * The median breakdown of `runs` calls of `op` (after `warmup`), each call's shares measured
 * together so the parts add up to that call's total.
 */
export async function breakdownOf(
  db: Database,
  actor: Actor,
  op: string,
  input: unknown,
  runs = 15,
  warmup = 3,
): Promise<Breakdown> {
  const { core, counters, restore } = instrumented(db);
  const spec = core.op(op);
  const samples: Breakdown[] = [];
  try {
    for (let i = 0; i < warmup + runs; i += 1) {
      counters.sql = 0;
      counters.queries = 0;
      counters.run = 0;
      counters.sqlInRun = 0;
      const start = performance.now();
      const { output } = await core.invoke(op, actor, input);
      const invokeMs = performance.now() - start;
      const s0 = performance.now();
      JSON.stringify(spec.output.parse(output));
      const serializeMs = performance.now() - s0;
      if (i < warmup) continue;
      const sqlOutsideRun = counters.sql - counters.sqlInRun;
      samples.push({
        totalMs: invokeMs + serializeMs,
        sqlMs: counters.sql,
        domainMs: counters.run - counters.sqlInRun,
        kernelMs: invokeMs - counters.run - sqlOutsideRun,
        serializeMs,
        queries: counters.queries,
      });
    }
  } finally {
    restore();
  }
  samples.sort((a, b) => a.totalMs - b.totalMs);
  const median = samples[Math.floor(samples.length / 2)];
  if (!median) throw new Error(`no samples of ${op}`);
  return median;
}

/** One bench row of a breakdown: total, then each share in percent, and the kernel's ratio. */
export function breakdownRow(name: string, b: Breakdown): BenchRow {
  const pct = (ms: number) => `${Math.round((100 * ms) / b.totalMs)}%`;
  // The kernel's overhead on this read: the call through invoke() against the op's own work
  // (its queries, its code and its serialization) with no kernel around it.
  const withoutKernel = b.totalMs - b.kernelMs;
  return {
    name,
    median: b.totalMs,
    unit: 'ms',
    note:
      `SQL ${pct(b.sqlMs)} (${b.queries} queries), series/domain ${pct(b.domainMs)}, ` +
      `kernel ${pct(b.kernelMs)}, serialization ${pct(b.serializeMs)}; ` +
      `kernel overhead ${(b.totalMs / withoutKernel).toFixed(2)}x (aim < 1.5x)`,
  };
}
