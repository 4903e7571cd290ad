import { fileURLToPath } from 'node:url';

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { getRequestListener } from '@hono/node-server';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { Hono } from 'hono';
import { z } from 'zod';

import { createEdge, type EdgeEnv } from '../bot/http/app.ts';
import { type HttpHost, listen } from '../bot/http/server.ts';
import { authenticateToken } from '../core/auth/authenticate.ts';
import type { Actor } from '../core/kernel/actor.ts';
import type { Core } from '../core/kernel/core.ts';
import type { catalog } from '../core/ops/catalog.ts';
import { createMcpFetchHandler } from '../mcp/http.ts';
import { successResult } from '../mcp/results.ts';
import { mcpRoutes } from '../mcp/routes.ts';
import { largeHousehold } from './largeHousehold.ts';
import { listToolsWith, partsOf, wordsOnly } from './toolList.ts';
import { type BenchRow, type BenchSuite, interleavedMs, medianMs } from './types.ts';

/**
 * MCP over HTTP and stdio: tools/call throughput and latency for read tools on a 500-subscription
 * household against a bare SDK server with one trivial tool on the same HTTP edge (same machine,
 * same run, same load), what the edge itself costs (that bare server behind it and on a bare Node
 * listener), a stdio round trip, and what tools/list costs an agent's context.
 */
const SUBSCRIPTIONS = 500;
const CONCURRENCY = 16;
const WARMUP_MS = 1_000;
const MEASURE_MS = 4_000;
const ROUNDS = 4;
const MODERN = '2026-07-28';

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
}

/** One 2026-era tools/call as a client sends it: envelope in _meta, Mcp-Method and Mcp-Name headers. */
function toolCall(
  url: string,
  token: string | null,
  name: string,
  args: Record<string, unknown>,
  send: (url: string, init: RequestInit) => Promise<Response> = fetch,
): () => Promise<boolean> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': MODERN,
    'mcp-method': 'tools/call',
    'mcp-name': name,
  };
  if (token) headers.authorization = `Bearer ${token}`;
  let id = 0;
  return async () => {
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
    const response = await send(url, { method: 'POST', headers, body });
    const text = await response.text();
    return response.ok && text.includes('"structuredContent"') && !text.includes('"isError":true');
  };
}

/** CONCURRENCY callers in a closed loop for `ms`, timing every call (or just warming up). */
async function drive(
  call: () => Promise<boolean>,
  ms: number,
  latencies: number[] | null,
): Promise<number> {
  const end = performance.now() + ms;
  let errors = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        const start = performance.now();
        const ok = await call();
        latencies?.push(performance.now() - start);
        if (!ok) errors += 1;
      }
    }),
  );
  return errors;
}

/**
 * The bare server and the target under the same load, in alternating windows, so a busy machine
 * slows both alike and the ratio stays meaningful.
 */
async function compare(
  bareCall: () => Promise<boolean>,
  targetCall: () => Promise<boolean>,
): Promise<{ bare: Load; target: Load }> {
  await drive(bareCall, WARMUP_MS / 2, null);
  await drive(targetCall, WARMUP_MS / 2, null);
  const acc = {
    bare: { latencies: [] as number[], ms: 0, errors: 0 },
    target: { latencies: [] as number[], ms: 0, errors: 0 },
  };
  for (let i = 0; i < ROUNDS; i += 1) {
    for (const [key, call] of [
      ['bare', bareCall],
      ['target', targetCall],
    ] as const) {
      const started = performance.now();
      acc[key].errors += await drive(call, MEASURE_MS / ROUNDS, acc[key].latencies);
      acc[key].ms += performance.now() - started;
    }
  }
  const summary = ({
    latencies,
    ms,
    errors,
  }: {
    latencies: number[];
    ms: number;
    errors: number;
  }): Load => {
    latencies.sort((a, b) => a - b);
    return {
      rps: latencies.length / (ms / 1000),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      errors,
    };
  };
  return { bare: summary(acc.bare), target: summary(acc.target) };
}

const round = (n: number, digits = 1): number => Number(n.toFixed(digits));

interface McpBenchHousehold {
  core: Core<typeof catalog>;
  someId: string;
  close: () => Promise<void>;
  token: (scope: 'read' | 'write' | 'trusted') => Promise<string>;
  agent: (token: string) => Promise<Actor>;
}

/** The shared large household (500 subscriptions, a year of charges) with tokens for its owner. */
async function household(): Promise<McpBenchHousehold> {
  const h = await largeHousehold({ subscriptions: SUBSCRIPTIONS, charges: SUBSCRIPTIONS * 12 });
  return {
    core: h.core,
    someId: h.subscriptionIds[Math.floor(SUBSCRIPTIONS / 2)] ?? '',
    close: () => h.close(),
    token: async (scope) =>
      (await h.core.invoke('create_token', h.owner, { name: `bench ${scope}`, scope })).output
        .token,
    agent: async (token) => {
      const actor = await authenticateToken(h.db, token, new Date());
      if (!actor) throw new Error('bench token did not authenticate');
      return actor;
    },
  };
}

/** The same SDK entry with one trivial tool: the ceiling for what the HTTP stack alone costs. */
function bareHandler() {
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
  return handler;
}

/**
 * The bare SDK handler on the HTTP edge, served as Exhale's /mcp is (a route group at /mcp): the
 * reference for what Exhale's MCP server and ops cost on top of the SDK, on the same HTTP stack.
 */
async function startBareOnEdge(): Promise<HttpHost> {
  const handler = bareHandler();
  const group = new Hono<EdgeEnv>();
  group.all('/mcp', (c) => handler.fetch(c.req.raw));
  const edge = createEdge();
  edge.mount('/', group);
  return listen(edge, { port: 0 });
}

/**
 * The bare SDK handler on a bare Node listener (@hono/node-server's, no app): against the same
 * handler on the edge, it shows what the edge itself (routing, request id, body limit) costs.
 */
async function startBareServer(): Promise<HttpHost> {
  const handler = bareHandler();
  const server = createServer(getRequestListener((request) => handler.fetch(request)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo; // listening on TCP: always an AddressInfo
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * CPU time (user + system, this process) per tools/call through the MCP handler in process (no
 * sockets, one call at a time), and how much of it the text copy of the result costs: the JSON of
 * the result serialized with the copy against without it (what dropping the copy would save).
 */
async function cpuPerCall(
  h: McpBenchHousehold,
  token: string,
  name: string,
  args: Record<string, unknown>,
): Promise<{ cpuMs: number; copyMs: number; textBytes: number }> {
  const handler = createMcpFetchHandler({ core: h.core });
  const viaHandler = toolCall('http://localhost/mcp', token, name, args, async (url, init) => {
    const headers = new Headers(init.headers);
    headers.set('host', 'localhost');
    return (
      (await handler(new Request(url, { ...init, headers }))) ?? new Response(null, { status: 404 })
    );
  });
  const CALLS = 200;
  for (let i = 0; i < 20; i += 1) await viaHandler();
  const before = process.cpuUsage();
  for (let i = 0; i < CALLS; i += 1) await viaHandler();
  const used = process.cpuUsage(before);
  const op = h.core.catalog.find((o) => o.name === name);
  if (!op) throw new Error(`${name} is not in the catalog`);
  const result = await h.core.invoke(name, await h.agent(token), args);
  const full = (): string => JSON.stringify(successResult(op, result, 'en'));
  const bare = (): string =>
    JSON.stringify({
      content: [{ type: 'text', text: 'summary' }],
      structuredContent: result.output,
    });
  const [withCopy, withoutCopy] = await interleavedMs(
    async () => full(),
    async () => bare(),
    200,
    20,
  );
  return {
    cpuMs: (used.user + used.system) / 1000 / CALLS,
    copyMs: Math.max(0, withCopy - withoutCopy),
    textBytes: Buffer.byteLength(JSON.stringify(result.output)),
  };
}

async function stdioRoundTrip(): Promise<number> {
  const entry = fileURLToPath(new URL('../test/mcp/stdioServer.ts', import.meta.url));
  const env = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  delete env.EXHALE_TEST_DATABASE_URL;
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', entry],
      env,
      stderr: 'ignore',
    }),
  );
  try {
    return await medianMs(() => client.callTool({ name: 'get_household', arguments: {} }), 200, 20);
  } finally {
    await client.close();
  }
}

export const suite: BenchSuite = {
  name: 'mcp',
  async run(): Promise<BenchRow[]> {
    const h = await household();
    // Exhale's /mcp as bot/main.ts serves it: the whole edge with MCP's route group mounted.
    const edge = createEdge();
    edge.mount('/', mcpRoutes(createMcpFetchHandler({ core: h.core })));
    const exhaleHost = await listen(edge, { port: 0 });
    const bareHost = await startBareOnEdge();
    const rawHost = await startBareServer();
    const rows: BenchRow[] = [];
    try {
      const read = await h.token('read');
      const bareCall = toolCall(`${bareHost.url}/mcp`, null, 'echo', { text: 'hello' });
      const describe = (l: Load, extra = '') =>
        `p50 ${round(l.p50, 2)} ms, p99 ${round(l.p99, 2)} ms${l.errors ? `, ${l.errors} errors` : ''}${extra}`;
      // Each with issue 15's aim against the bare server.
      const calls: Array<[string, string, Record<string, unknown>, number]> = [
        ['get_subscription', 'get_subscription', { id: h.someId }, 0.8],
        ['list_subscriptions (limit 20)', 'list_subscriptions', { limit: 20 }, 0.6],
        ['get_upcoming', 'get_upcoming', {}, 0.3],
      ];
      // The edge alone: the same trivial SDK server behind it and on a bare Node listener.
      const edgeCost = await compare(
        toolCall(`${rawHost.url}/mcp`, null, 'echo', { text: 'hello' }),
        bareCall,
      );
      rows.push({
        name: 'mcp http: bare SDK server on a bare Node listener, 1 trivial tool',
        median: round(edgeCost.bare.rps, 0),
        unit: 'req/s',
        note: describe(edgeCost.bare, `, ${CONCURRENCY} concurrent`),
      });
      rows.push({
        name: 'mcp http: the same server behind the HTTP edge',
        median: round(edgeCost.target.rps, 0),
        unit: 'req/s',
        note: describe(
          edgeCost.target,
          `, ${round(edgeCost.target.rps / edgeCost.bare.rps, 2)}x the bare listener (the edge's own cost)`,
        ),
      });
      for (const [label, name, args, aim] of calls) {
        if (!h.core.catalog.some((op) => op.name === name)) continue;
        // The op alone, without MCP or HTTP: the ceiling the kernel and SQLite set for this tool.
        const agent = await h.agent(read);
        const direct = { latencies: [] as number[], started: 0 };
        await drive(
          async () => Boolean(await h.core.invoke(name, agent, args)),
          WARMUP_MS / 2,
          null,
        );
        direct.started = performance.now();
        await drive(
          async () => Boolean(await h.core.invoke(name, agent, args)),
          MEASURE_MS / ROUNDS,
          direct.latencies,
        );
        const directRps = direct.latencies.length / ((performance.now() - direct.started) / 1000);
        const { bare, target: result } = await compare(
          bareCall,
          toolCall(`${exhaleHost.url}/mcp`, read, name, args),
        );
        rows.push({
          name: `mcp http: bare SDK server on the edge, 1 trivial tool (paired with ${name})`,
          median: round(bare.rps, 0),
          unit: 'req/s',
          note: describe(bare, `, ${CONCURRENCY} concurrent`),
        });
        rows.push({
          name: `mcp http: tools/call ${label}, ${SUBSCRIPTIONS} subscriptions`,
          median: round(result.rps, 0),
          unit: 'req/s',
          note: describe(
            result,
            `, ${round(result.rps / bare.rps, 2)}x the bare server (aim ≥ ${aim}x); the op alone via core.invoke: ${round(directRps, 0)} req/s`,
          ),
        });
      }
      if (h.core.catalog.some((op) => op.name === 'get_upcoming')) {
        const cpu = await cpuPerCall(h, read, 'get_upcoming', {});
        rows.push({
          name: `mcp get_upcoming: CPU per tools/call, ${SUBSCRIPTIONS} subscriptions`,
          median: round(cpu.cpuMs, 3),
          unit: 'ms',
          note: `in process, one at a time; the JSON copy of the result in its text (${cpu.textBytes} bytes) costs ${round(cpu.copyMs, 3)} ms of it to serialize (${round((100 * cpu.copyMs) / cpu.cpuMs, 1)}%), kept for clients that show the model only text`,
        });
      }
      rows.push({
        name: 'mcp stdio: tools/call get_household round trip',
        median: round(await stdioRoundTrip(), 3),
        unit: 'ms',
      });
      for (const scope of ['read', 'write', 'trusted'] as const) {
        const tools = await listToolsWith(h.core, await h.token(scope));
        const bytes = Buffer.byteLength(JSON.stringify(tools));
        const parts = partsOf(tools);
        const sum = (part: 'naming' | 'description' | 'input' | 'output' | 'annotations'): number =>
          parts.reduce((n, p) => n + p[part], 0);
        rows.push({
          name: `mcp tools/list size, ${scope} token`,
          median: bytes,
          unit: 'bytes',
          note: `${tools.length} tools, about ${Math.round(bytes / 4 / 100) * 100} tokens of context; names and titles ${sum('naming')}, descriptions ${sum('description')}, input schemas ${sum('input')}, output schemas ${sum('output')}, annotations ${sum('annotations')} (npx tsx bench/toolListBreakdown.ts ${scope}: per tool)`,
        });
        rows.push({
          name: `  the same, words only (no output schema, annotation, title or bound), ${scope} token`,
          median: Buffer.byteLength(JSON.stringify(wordsOnly(tools))),
          unit: 'bytes',
          note: 'names, descriptions and input schemas with their field descriptions: the least the list is without dropping or rewording what a model reads',
        });
      }
    } finally {
      await exhaleHost.close();
      await bareHost.close();
      await rawHost.close();
      await h.close();
    }
    return rows;
  },
};
