import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

import type { Actor } from '../../core/kernel/actor.ts';
import { createMcpFetchHandler } from '../../mcp/http.ts';
import { createTestHousehold, type TestHousehold } from '../helpers/testCore.ts';

export const MCP_URL = 'http://localhost:8080/mcp';

export type Era = 'modern' | 'legacy';
export const ERAS: readonly Era[] = ['modern', 'legacy'];

export interface McpTestHousehold extends TestHousehold {
  handler: (request: Request) => Promise<Response | null>;
  /** A raw token for the owner (or another member acting in person) with the given scope. */
  token(
    scope: 'read' | 'write' | 'trusted',
    as?: Actor,
    name?: string,
  ): Promise<{ id: string; token: string }>;
  /** An SDK client connected in-process through the handler, in one protocol era. */
  connect(token: string, era: Era, options?: ClientOptions): Promise<Client>;
  /** The handler's answer to a raw request (a real Host header added, as a socket would carry). */
  send(path: string, init?: RequestInit): Promise<Response>;
  closeAll(): Promise<void>;
}

interface ElicitAnswer {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, string | number | boolean>;
}

interface ClientOptions {
  name?: string;
  /** Answers elicitation requests; when given, the client declares form elicitation. */
  elicit?: (message: string) => ElicitAnswer | Promise<ElicitAnswer>;
}

function withHost(url: string | URL, init: RequestInit | undefined): Request {
  const target = new URL(url);
  const headers = new Headers(init?.headers);
  if (!headers.has('host')) headers.set('host', target.host);
  return new Request(target, { ...init, headers });
}

/** An SDK client connected in-process through `handler` with `token`, in one protocol era. */
export async function connectClient(
  handler: (request: Request) => Promise<Response | null>,
  token: string,
  era: Era,
  clientOptions: ClientOptions = {},
): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), {
    fetch: async (url, init) =>
      (await handler(withHost(url, init))) ?? new Response('no handler', { status: 404 }),
    authProvider: { token: async () => token },
  });
  const client = new Client(
    { name: clientOptions.name ?? 'test-agent', version: '1.0.0' },
    {
      versionNegotiation: { mode: era === 'modern' ? { pin: '2026-07-28' } : 'legacy' },
      capabilities: clientOptions.elicit ? { elicitation: { form: {} } } : {},
    },
  );
  if (clientOptions.elicit) {
    const answer = clientOptions.elicit;
    client.setRequestHandler('elicitation/create', async (request) => ({
      ...(await answer(request.params.message)),
    }));
  }
  await client.connect(transport);
  return client;
}

/** A test household with the MCP handler mounted in-process (no port) and helpers to reach it. */
export async function createMcpTestHousehold(
  options: { publicUrl?: string } = {},
): Promise<McpTestHousehold> {
  const h = await createTestHousehold();
  const handler = createMcpFetchHandler({ core: h.core, publicUrl: options.publicUrl });
  const clients: Client[] = [];
  const send = async (path: string, init?: RequestInit): Promise<Response> =>
    (await handler(withHost(new URL(path, MCP_URL), init))) ??
    new Response('no handler', { status: 404 });
  return {
    ...h,
    handler,
    send,
    async token(scope, as = h.owner, name = `${scope} token`) {
      const { output } = await h.core.invoke('create_token', as, { name, scope });
      return { id: output.id, token: output.token };
    },
    async connect(token, era, clientOptions = {}) {
      const client = await connectClient(handler, token, era, clientOptions);
      clients.push(client);
      return client;
    },
    async closeAll() {
      for (const client of clients) await client.close().catch(() => undefined);
      await h.close();
    },
  };
}
