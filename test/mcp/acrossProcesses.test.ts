import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type Actor, memberActor, newcomerActor } from '../../core/kernel/actor.ts';
import type { Core } from '../../core/kernel/core.ts';
import type { EventBus } from '../../core/kernel/events.ts';
import type { catalog } from '../../core/ops/catalog.ts';
import type { Database } from '../../core/store/connection.ts';
import { createMcpFetchHandler, type McpFetchHandler } from '../../mcp/http.ts';
import {
  busHeard as changeHeard,
  type ProcessCore,
  processCores,
} from '../helpers/processCores.ts';
import { freshnessReads } from '../helpers/freshnessReads.ts';
import { openSharedTestDatabase, type SharedTestDatabase } from '../helpers/sharedDatabase.ts';

type AppCore = Core<typeof catalog>;

/**
 * MCP's tools/call over the read caches (the token, the membership, the read model and its
 * views, sharing one freshness check per request): with the server in one process and the CLI
 * writing in another on the same database, the next request sees what the other wrote and is
 * refused once its token is revoked, with no wait on SQLite (data_version) and, on PostgreSQL,
 * the token and membership looked up on every request (the views once the change event came).
 */
describe('MCP tools/call while another process writes', () => {
  let shared: SharedTestDatabase;
  let server: { core: AppCore; db: Database; bus: EventBus; handler: McpFetchHandler };
  let cli: AppCore;
  let owner: Actor;
  let householdId = '';

  /** A Core as another process has it: its own pool, and on PostgreSQL its own listening bus. */
  const cores = processCores(() => shared);
  const processCore = (): Promise<ProcessCore> => cores.open();

  /** One 2026-era tools/call as a client sends it; the parsed JSON-RPC answer and the status. */
  async function call(token: string, name: string, args: Record<string, unknown>) {
    const response = await server.handler(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: {
          host: 'localhost',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': name,
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name,
            arguments: args,
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
              'io.modelcontextprotocol/clientInfo': { name: 'test-agent', version: '1' },
            },
          },
        }),
      }),
    );
    if (!response) throw new Error('the handler did not answer /mcp');
    const status = response.status;
    const text = await response.text();
    if (status !== 200) return { status, structured: null };
    const body = JSON.parse(text) as {
      result: { structuredContent?: Record<string, unknown>; isError?: boolean };
    };
    return { status, structured: body.result.isError ? null : body.result.structuredContent };
  }

  beforeEach(async () => {
    shared = await openSharedTestDatabase();
    const a = await processCore();
    server = { ...a, handler: createMcpFetchHandler({ core: a.core }) };
    cli = (await processCore()).core;
    const created = await cli.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      owner_name: 'Ana',
    });
    householdId = created.output.household.id;
    owner = memberActor({ ...created.output.member, household_id: householdId }, 'cli');
  });
  afterEach(async () => {
    await server.handler.close();
    await cores.close();
    await shared.close();
  });

  it('answers from what the other process wrote last, and refuses a token it revoked on the very next request', async () => {
    const made = await cli.invoke('create_subscription', owner, {
      name: 'Netflix',
      amount: '9.99',
    });
    const id = made.output.id;
    const token = await cli.invoke('create_token', owner, { name: 'Claude', scope: 'read' });
    const raw = token.output.token;
    // Twice each: the second answers may come from the server's caches.
    for (let i = 0; i < 2; i += 1) {
      expect((await call(raw, 'get_subscription', { id })).structured?.name).toBe('Netflix');
      expect((await call(raw, 'list_subscriptions', {})).structured?.total).toBe(1);
    }
    /** PostgreSQL: the server hears the change before the next call; SQLite needs no wait. */
    const written = async (write: () => Promise<unknown>) => {
      const heard = shared.dialect === 'postgres' ? changeHeard(server.bus, householdId) : null;
      await write();
      await heard;
    };
    await written(() => cli.invoke('update_subscription', owner, { id, name: 'Netflix 4K' }));
    await written(() => cli.invoke('create_subscription', owner, { name: 'Gym', amount: '30.00' }));
    expect((await call(raw, 'get_subscription', { id })).structured?.name).toBe('Netflix 4K');
    const listed = await call(raw, 'list_subscriptions', { sort: 'monthly_cost', order: 'desc' });
    expect(listed.structured?.total).toBe(2);
    expect((listed.structured?.items as Array<{ name: string }>).map((s) => s.name)).toEqual([
      'Gym',
      'Netflix 4K',
    ]);
    // No wait for any event here: who may act is never answered from a stale cache.
    await cli.invoke('revoke_token', owner, { id: token.output.id });
    expect((await call(raw, 'get_subscription', { id })).status).toBe(401);
  });

  it('checks freshness once per request on SQLite: the token, the membership and the read model share one data_version read', async () => {
    const made = await cli.invoke('create_subscription', owner, {
      name: 'Netflix',
      amount: '9.99',
    });
    const raw = (await cli.invoke('create_token', owner, { name: 'Claude', scope: 'read' })).output
      .token;
    for (const [name, args] of [
      ['get_subscription', { id: made.output.id }],
      ['list_subscriptions', {}],
      ['get_upcoming', {}],
    ] as const) {
      await call(raw, name, args);
      const versions = await freshnessReads(server.db, async () => {
        expect((await call(raw, name, args)).structured, name).not.toBeNull();
      });
      // PostgreSQL has no such check: its bus says what changed.
      expect(versions, name).toBe(shared.dialect === 'sqlite' ? 1 : 0);
    }
  });
});
