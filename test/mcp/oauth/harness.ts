import { createHash, randomBytes } from 'node:crypto';

import { createEdge } from '../../../bot/http/app.ts';
import { type HttpHost, listen } from '../../../bot/http/server.ts';
import type { Actor, Core } from '../../../core/index.ts';
import { createMcpFetchHandler } from '../../../mcp/http.ts';
import { authorizationServer } from '../../../mcp/oauth/index.ts';
import { mcpRoutes } from '../../../mcp/routes.ts';
import type { DocumentFetchOptions, RegistrationLimits } from '../../../core/index.ts';

/** Where the in-process server says it is (no socket: requests go straight to the edge). */
export const BASE = 'http://localhost:8080';
export const RESOURCE = `${BASE}/mcp`;
export const REDIRECT = 'http://127.0.0.1:3000/callback';

/** A PKCE pair (RFC 7636, S256). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface AsHarness {
  send(path: string, init?: RequestInit): Promise<Response>;
  /** POSTs a form body. */
  form(
    path: string,
    fields: Record<string, string>,
    headers?: Record<string, string>,
  ): Promise<Response>;
  register(meta?: Record<string, unknown>): Promise<{ client_id: string; client_secret?: string }>;
  connectCode(actor: Actor): Promise<string>;
  /** Runs consent with a connect code and returns the redirect's query. */
  authorize(
    clientId: string,
    actor: Actor,
    overrides?: Record<string, string>,
  ): Promise<{ location: URL; verifier: string }>;
  tokens(
    clientId: string,
    code: string,
    verifier: string,
    extra?: Record<string, string>,
  ): Promise<Response>;
  mcpCall(token: string, tool: string, args?: Record<string, unknown>): Promise<Response>;
  /** Serves the same edge on a socket of 127.0.0.1 (for a browser); its base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** The edge with MCP and the authorization server, served in process, for one test core. */
export function asHarness(
  core: Core,
  options: {
    documentFetch?: DocumentFetchOptions;
    publicUrl?: string;
    trustProxy?: boolean;
    registrationLimits?: RegistrationLimits;
  } = {},
): AsHarness {
  const edge = createEdge({ log: () => {} });
  const mcp = createMcpFetchHandler({ core, publicUrl: options.publicUrl ?? BASE });
  edge.mount('/', mcpRoutes(mcp));
  edge.mount(
    '/',
    authorizationServer(core, {
      publicUrl: options.publicUrl ?? BASE,
      documentFetch: options.documentFetch,
      // Behind a trusted proxy, X-Forwarded-For names the person's address (a test's many people).
      trustProxy: options.trustProxy,
      registrationLimits: options.registrationLimits,
    }),
  );
  // A socket-less request has no Host header: set it, as a client would.
  const send = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (!headers.has('host')) headers.set('host', new URL(BASE).host);
    return edge.app.fetch(new Request(`${BASE}${path}`, { ...init, headers }));
  };
  const form = (
    path: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ) =>
    send(path, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  const hosts: HttpHost[] = [];
  const h: AsHarness = {
    send,
    form,
    async register(meta = {}) {
      const response = await send('/oauth/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'Claude.ai',
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: 'none',
          ...meta,
        }),
      });
      if (response.status !== 201)
        throw new Error(`register: ${response.status} ${await response.text()}`);
      return (await response.json()) as { client_id: string; client_secret?: string };
    },
    async connectCode(actor) {
      const { output } = await core.invoke('create_connect_code', actor, {}, { surface: 'chat' });
      return (output as { code: string }).code;
    },
    async authorize(clientId, actor, overrides = {}) {
      const { verifier, challenge } = pkce();
      const code = await h.connectCode(actor);
      const response = await form('/oauth/authorize', {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        state: 'st-1',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource: RESOURCE,
        scope: 'read write',
        decision: 'allow',
        via: 'code',
        connect_code: code,
        ...overrides,
      });
      if (response.status !== 302)
        throw new Error(`authorize: ${response.status} ${await response.text()}`);
      return { location: new URL(response.headers.get('location') ?? ''), verifier };
    },
    tokens(clientId, code, verifier, extra = {}) {
      return form('/oauth/token', {
        grant_type: 'authorization_code',
        code,
        client_id: clientId,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        resource: RESOURCE,
        ...extra,
      });
    },
    async mcpCall(token, tool, args = {}) {
      // Read to the end, so the call has finished before the test goes on (or closes the database).
      const response = await send('/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: tool, arguments: args },
        }),
      });
      const text = await response.text();
      return new Response(text, { status: response.status, headers: response.headers });
    },
    async listen() {
      const host = await listen(edge, { port: 0 });
      hosts.push(host);
      return host.url;
    },
    async close() {
      for (const host of hosts.splice(0)) {
        host.server.closeAllConnections();
        await host.close();
      }
      await mcp.close();
    },
  };
  return h;
}

/** The JSON-RPC result of an SSE or JSON answer from /mcp. */
export async function rpcResult(
  response: Response,
): Promise<{ structuredContent?: unknown; isError?: boolean }> {
  const text = await response.text();
  const data = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
  return (JSON.parse(data) as { result: { structuredContent?: unknown; isError?: boolean } })
    .result;
}
