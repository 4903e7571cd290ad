import { randomBytes } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FakeTelegram } from '../fakes/telegramBotApi.ts';
import {
  type ExhaleServer,
  householdWithToken,
  startExhaleProcess,
} from '../helpers/exhaleProcess.ts';

const TEST_URL = process.env.EXHALE_TEST_DATABASE_URL;

/**
 * A round-robin HTTP proxy in front of the processes, as a load balancer would be: each request
 * goes to the next backend still alive; a backend that fails is taken out, and the request that
 * met the failure is answered 502 (never retried: it may have been written).
 */
class Proxy {
  readonly served: string[] = [];
  private next = 0;
  private readonly seen = new Set<ExhaleServer>();
  private server: Server | null = null;
  constructor(private backends: ExhaleServer[]) {}

  /** The processes behind it (a balancer may be up before them: their public URL names it). */
  use(backends: ExhaleServer[]): void {
    this.backends = backends;
  }

  async start(): Promise<string> {
    const alive = new Set(this.backends);
    for (const b of this.backends) this.seen.add(b);
    this.server = createServer((req, res) => {
      for (const b of this.backends)
        if (!this.seen.has(b)) {
          this.seen.add(b);
          alive.add(b);
        }
      const live = this.backends.filter((b) => alive.has(b));
      const backend = live[this.next++ % live.length];
      if (!backend) return void res.writeHead(502).end();
      this.served.push(backend.url);
      const upstream = request(
        `${backend.url}${req.url ?? '/'}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          answer.on('error', () => res.destroy());
        },
      );
      upstream.on('error', () => {
        alive.delete(backend);
        if (res.headersSent) res.destroy();
        else res.writeHead(502).end();
      });
      req.pipe(upstream);
    });
    const server = this.server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    return `http://127.0.0.1:${address.port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}

async function mcpClient(url: string, token: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
    authProvider: { token: async () => token },
  });
  const client = new Client(
    { name: 'test-agent', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(transport);
  return client;
}

function structured(result: unknown): Record<string, unknown> {
  const content = (result as { structuredContent?: Record<string, unknown>; isError?: boolean })
    .structuredContent;
  if (!content || (result as { isError?: boolean }).isError)
    throw new Error(`tool failed: ${JSON.stringify(result)}`);
  return content;
}

describe.runIf(TEST_URL)('two exhale processes on one PostgreSQL database', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let admin: pg.Client;
  let env: Record<string, string>;
  let token: string;
  let a: ExhaleServer;
  let b: ExhaleServer;
  let proxy: Proxy;
  let base: string;
  const clients: Client[] = [];

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: TEST_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const url = new URL(TEST_URL ?? '');
    url.searchParams.set('options', `-c search_path=${schema}`);
    env = { EXHALE_DATABASE_URL: url.toString() };
    token = await householdWithToken(env, 'trusted');
    [a, b] = await Promise.all([startExhaleProcess(env), startExhaleProcess(env)]);
    proxy = new Proxy([a, b]);
    base = await proxy.start();
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await proxy.stop();
    for (const p of [a, b])
      if (p.child.exitCode === null && p.child.signalCode === null) p.kill('SIGTERM');
    await Promise.all([a.exited, b.exited]);
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  });

  it('tells an MCP client listening through one process of changes made through the other', async () => {
    const writer = await mcpClient(base, token);
    const listener = await mcpClient(base, token);
    clients.push(writer, listener);
    const created = structured(
      await writer.callTool({
        name: 'create_subscription',
        arguments: { name: 'Netflix', amount: '15.99' },
      }),
    );
    const uri = `exhale://subscriptions/${String(created.id)}`;

    const CHANGES = 4;
    const updated: string[] = [];
    let all: () => void = () => undefined;
    const heardAll = new Promise<void>((resolve) => (all = resolve));
    listener.setNotificationHandler('notifications/resources/updated', (n) => {
      if (n.params.uri === uri) updated.push(n.params.uri);
      if (updated.length === CHANGES) all();
    });
    const listening = await listener.listen({ resourceSubscriptions: [uri] });
    const streamAt = proxy.served.at(-1);

    const writtenAt: string[] = [];
    for (let i = 1; i <= CHANGES; i++) {
      structured(
        await writer.callTool({
          name: 'update_subscription',
          arguments: { id: created.id, name: `Netflix ${i}` },
        }),
      );
      writtenAt.push(proxy.served.at(-1) ?? '');
    }
    // Round robin put some of the changes on the process that does not hold the listen stream.
    expect(writtenAt.some((url) => url !== streamAt)).toBe(true);
    await Promise.race([
      heardAll,
      new Promise((_, reject) =>
        setTimeout(() => reject(new Error(`heard ${updated.length}`)), 15_000),
      ),
    ]);
    expect(updated).toHaveLength(CHANGES);
    await listening.close();
  }, 60_000);

  it('loses no acknowledged write when one process is killed mid-run', async () => {
    const TOTAL = 30;
    const KILL_AFTER = 8;
    const acknowledged: string[] = [];
    const failed: string[] = [];
    let killed = false;
    // Two writers at once, each its own client, as two agents would be.
    const writers = [await mcpClient(base, token), await mcpClient(base, token)];
    clients.push(...writers);
    let n = 0;
    await Promise.all(
      writers.map(async (writer) => {
        while (n < TOTAL) {
          const name = `Sub ${++n}`;
          try {
            structured(
              await writer.callTool({
                name: 'create_subscription',
                arguments: { name, amount: '1.00' },
              }),
            );
            acknowledged.push(name);
          } catch {
            failed.push(name);
          }
          if (!killed && acknowledged.length >= KILL_AFTER) {
            killed = true;
            b.kill('SIGKILL');
          }
        }
      }),
    );
    expect(await b.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const rows = await admin.query<{ name: string }>(
      `select name from ${schema}.subscriptions where name like 'Sub %'`,
    );
    const written = new Set(rows.rows.map((r) => r.name));
    // Every write acknowledged is a row; a row not acknowledged was in flight when B died.
    for (const name of acknowledged) expect(written).toContain(name);
    for (const name of written) expect([...acknowledged, ...failed]).toContain(name);
    expect(acknowledged.length).toBeGreaterThan(KILL_AFTER);
    expect(failed.length).toBeLessThanOrEqual(2);
  }, 90_000);
});

describe.runIf(TEST_URL)('two exhale processes serving one Telegram bot by webhook', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let admin: pg.Client;
  let tg: FakeTelegram;
  let a: ExhaleServer;
  let b: ExhaleServer;
  let proxy: Proxy;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: TEST_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    tg = await new FakeTelegram().start();
    proxy = new Proxy([]);
    const base = await proxy.start();
    const url = new URL(TEST_URL ?? '');
    url.searchParams.set('options', `-c search_path=${schema}`);
    const env = {
      EXHALE_DATABASE_URL: url.toString(),
      EXHALE_TELEGRAM_TOKEN: tg.token,
      EXHALE_TELEGRAM_API_ROOT: tg.apiRoot,
      // Telegram posts to the balancer, which hands each update to one of the processes.
      EXHALE_PUBLIC_URL: base,
    };
    [a, b] = await Promise.all([startExhaleProcess(env), startExhaleProcess(env)]);
    proxy.use([a, b]);
    await tg.waitFor((api) => api.webhookUrl !== null, 30_000, 'the webhook set');
  }, 120_000);

  afterAll(async () => {
    await proxy.stop();
    for (const p of [a, b])
      if (p.child.exitCode === null && p.child.signalCode === null) p.kill('SIGTERM');
    await Promise.all([a.exited, b.exited]);
    await tg.stop();
    await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  });

  it('answers each update once, whichever process the balancer gives it to', async () => {
    const ana = tg.user(2001, 'Ana', 'en');
    await tg.sendText(ana, '/start');
    await tg.waitForMessages(ana.id, 1, 20_000);
    const before = tg.botMessages(ana.id).length;
    const servedBefore = proxy.served.length;
    const HELPS = 6;
    for (let i = 0; i < HELPS; i++) {
      await tg.sendText(ana, '/help');
      await tg.waitForMessages(ana.id, before + i + 1, 20_000);
    }
    // Both processes answered some; every delivery was accepted; each /help got one answer.
    const served = new Set(proxy.served.slice(servedBefore));
    expect(served).toEqual(new Set([a.url, b.url]));
    expect(tg.webhookStatuses.every((status) => status === 200)).toBe(true);
    expect(tg.botMessages(ana.id).length - before).toBe(HELPS);
  }, 90_000);
});
