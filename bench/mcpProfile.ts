import type { Knex } from 'knex';

import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';

import { createMcpFetchHandler } from '../mcp/http.ts';
import type { Core } from '../core/kernel/core.ts';
import type { catalog } from '../core/ops/catalog.ts';
import { largeHousehold } from './largeHousehold.ts';

/**
 * Where one MCP `tools/call` spends its time, end to end in process (no sockets, one call at a
 * time, so the timers never overlap): `npx tsx bench/mcpProfile.ts [calls]` (add
 * `node --cpu-prof --import tsx` to profile it; `node /work/tools/prof.mjs <file> mcp/` sums it).
 * Per call of each tool on a 500-subscription household, CPU time of the whole request next to a
 * bare SDK server's trivial tool, and its split: SQL (every driver round trip, auth's and the
 * kernel's included), the op's own code (view building, what its run does besides SQL), the
 * kernel (invoke minus the op's run minus its SQL), and the MCP layer (what is left: auth, the
 * SDK's dispatch, the result and its JSON, the Request and Response).
 */
const CALLS = Number(process.argv[2] ?? 400);
const MODERN = '2026-07-28';

type Send = (request: Request) => Promise<Response | null>;

function call(send: Send, token: string | null, name: string, args: Record<string, unknown>) {
  let id = 0;
  const headers: Record<string, string> = {
    host: 'localhost',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': 'tools/call',
    'mcp-name': name,
  };
  if (token) headers.authorization = `Bearer ${token}`;
  return async (): Promise<void> => {
    id += 1;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
        },
      },
    });
    const response = await send(
      new Request('http://localhost/mcp', { method: 'POST', headers, body }),
    );
    const text = (await response?.text()) ?? '';
    if (!response?.ok || !text.includes('"structuredContent"') || text.includes('"isError":true'))
      throw new Error(`${name} failed: ${text.slice(0, 300)}`);
  };
}

/** The part of knex's client timed: knex declares `client` as `any`. */
interface QueryingClient {
  _query(connection: unknown, query: unknown): Promise<unknown>;
}

function timers(core: Core<typeof catalog>) {
  const t = { sql: 0, queries: 0, invoke: 0, run: 0, sqlInRun: 0, sqlInInvoke: 0 };
  let inRun = false;
  let inInvoke = false;
  const client = (core.db.knex as Knex & { client: QueryingClient }).client;
  const original = client._query.bind(client);
  client._query = async (connection: unknown, query: unknown) => {
    const start = performance.now();
    try {
      return await original(connection, query);
    } finally {
      const ms = performance.now() - start;
      t.sql += ms;
      t.queries += 1;
      if (inRun) t.sqlInRun += ms;
      if (inInvoke) t.sqlInInvoke += ms;
    }
  };
  const invoke = core.invoke.bind(core);
  core.invoke = (async (...args: Parameters<typeof invoke>) => {
    const start = performance.now();
    inInvoke = true;
    try {
      return await invoke(...args);
    } finally {
      inInvoke = false;
      t.invoke += performance.now() - start;
    }
  }) as typeof core.invoke; // the same overloads, timed
  for (const op of core.catalog) {
    const run = op.run.bind(op);
    (op as { run: typeof op.run }).run = (async (ctx: never, input: never) => {
      const start = performance.now();
      inRun = true;
      try {
        return await run(ctx, input);
      } finally {
        inRun = false;
        t.run += performance.now() - start;
      }
    }) as typeof op.run; // wrapped in place, same signature
  }
  return t;
}

function bare(): Send {
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: 'bare', version: '1' });
    server.registerTool(
      'echo',
      {
        description: 'Returns its input.',
        inputSchema: z.object({ text: z.string() }),
        outputSchema: z.object({ text: z.string() }),
      },
      async ({ text }) => ({ content: [{ type: 'text', text }], structuredContent: { text } }),
    );
    return server;
  });
  return (request) => handler.fetch(request);
}

async function cpuMs(
  run: () => Promise<void>,
  calls: number,
): Promise<{ cpu: number; wall: number }> {
  for (let i = 0; i < Math.min(50, calls); i += 1) await run();
  const before = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < calls; i += 1) await run();
  const used = process.cpuUsage(before);
  return {
    cpu: (used.user + used.system) / 1000 / calls,
    wall: (performance.now() - start) / calls,
  };
}

const h = await largeHousehold({ subscriptions: 500, charges: 6000 });
const token = (await h.core.invoke('create_token', h.owner, { name: 'profile', scope: 'read' }))
  .output.token;
const t = timers(h.core);
const exhale = createMcpFetchHandler({ core: h.core });
const send: Send = (request) => exhale(request);
const someId = h.subscriptionIds[250] ?? '';
const bareCpu = await cpuMs(call(bare(), null, 'echo', { text: 'hello' }), CALLS);
const f = (n: number) => n.toFixed(3).padStart(7);
console.log(`bare SDK echo: ${f(bareCpu.cpu)} ms CPU, ${f(bareCpu.wall)} ms wall per call`);
for (const [name, args] of [
  ['get_subscription', { id: someId }],
  ['list_subscriptions', { limit: 20 }],
  ['get_upcoming', {}],
] as const) {
  const run = call(send, token, name, args);
  for (let i = 0; i < 50; i += 1) await run();
  for (const k of Object.keys(t) as Array<keyof typeof t>) t[k] = 0;
  const { cpu, wall } = await cpuMs(run, CALLS);
  // The warm-up inside cpuMs was counted too: per call over everything timed.
  const n = CALLS + Math.min(50, CALLS);
  const sql = t.sql / n;
  const opCode = (t.run - t.sqlInRun) / n;
  const kernel = (t.invoke - t.run - (t.sqlInInvoke - t.sqlInRun)) / n;
  const mcp = wall - sql - opCode - kernel;
  console.log(
    `${name.padEnd(20)} ${f(cpu)} ms CPU (${(bareCpu.cpu / cpu).toFixed(2)}x bare), ${f(wall)} ms wall: ` +
      `SQL ${f(sql)} (${(t.queries / n).toFixed(1)} queries), op code ${f(opCode)}, kernel ${f(kernel)}, MCP layer ${f(mcp)}`,
  );
}
await exhale.close();
await h.close();
