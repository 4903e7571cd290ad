import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { createEdge } from '../../bot/http/app.ts';
import { type HttpHost, listen } from '../../bot/http/server.ts';
import { createMcpFetchHandler, type McpFetchHandler } from '../../mcp/http.ts';
import { mcpRoutes } from '../../mcp/routes.ts';
import { createMcpTestHousehold, type McpTestHousehold } from './helpers.ts';

/** The HTTP edge on a free port with MCP's route group mounted, as `bot/main.ts` composes it. */
async function serve(handler: McpFetchHandler, maxBodyBytes?: number): Promise<HttpHost> {
  const edge = createEdge({ maxBodyBytes });
  edge.mount('/', mcpRoutes(handler));
  return listen(edge, { port: 0 });
}

const LEGACY_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};
const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'curl', version: '1' },
  },
});

describe('the /mcp endpoint on the HTTP edge', () => {
  let h: McpTestHousehold;
  let host: HttpHost;
  let token: string;
  beforeEach(async () => {
    h = await createMcpTestHousehold();
    host = await serve(createMcpFetchHandler({ core: h.core }));
    token = (await h.token('read')).token;
  });
  afterEach(async () => {
    await host.close();
    await h.closeAll();
  });

  it.each(['auto', 'legacy'] as const)(
    'serves the SDK client over a real socket (%s negotiation)',
    async (mode) => {
      const client = new Client(
        { name: 'socket-test', version: '1' },
        { versionNegotiation: { mode } },
      );
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${host.url}/mcp`), {
          authProvider: { token: async () => token },
        }),
      );
      expect(client.getProtocolEra()).toBe(mode === 'auto' ? 'modern' : 'legacy');
      const result = await client.callTool({ name: 'get_household', arguments: {} });
      expect(result.structuredContent).toMatchObject({ id: h.householdId, currency: 'EUR' });
      await client.close();
    },
  );

  it('answers GET and DELETE with 405 where the era has no stream', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${host.url}/mcp`, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
      });
      expect(response.status).toBe(405);
    }
  });

  it('serves a stateless 2025-era initialize on the same URL, without a session', async () => {
    const response = await fetch(`${host.url}/mcp`, {
      method: 'POST',
      headers: { ...LEGACY_HEADERS, authorization: `Bearer ${token}` },
      body: initialize,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(await response.text()).toContain('"serverInfo"');
  });

  it('refuses another Host always (DNS rebinding), and a foreign Origin that brings no token', async () => {
    const evilHost = await h.send('/mcp', {
      method: 'POST',
      headers: { ...LEGACY_HEADERS, host: 'evil.example', authorization: `Bearer ${token}` },
      body: initialize,
    });
    expect(evilHost.status).toBe(403);
    const preflightToEvilHost = await h.send('/mcp', {
      method: 'OPTIONS',
      headers: { host: 'evil.example', origin: 'http://evil.example' },
    });
    expect(preflightToEvilHost.status).toBe(403);
    const evilOrigin = await fetch(`${host.url}/mcp`, {
      method: 'POST',
      headers: { ...LEGACY_HEADERS, origin: 'https://evil.example' },
      body: initialize,
    });
    expect(evilOrigin.status).toBe(403);
    const local = await fetch(`${host.url}/mcp`, {
      method: 'POST',
      headers: {
        ...LEGACY_HEADERS,
        origin: 'http://localhost:5173',
        authorization: `Bearer ${token}`,
      },
      body: initialize,
    });
    expect(local.status).toBe(200);
  });

  it('answers a page of another site that sends its own bearer token as any client, with CORS', async () => {
    const answered = await fetch(`${host.url}/mcp`, {
      method: 'POST',
      headers: {
        ...LEGACY_HEADERS,
        origin: 'https://inspector.example',
        authorization: `Bearer ${token}`,
      },
      body: initialize,
    });
    expect(answered.status).toBe(200);
    expect(answered.headers.get('access-control-allow-origin')).toBe('*');
    expect(await answered.text()).toContain('"serverInfo"');
    // A token it no longer holds rightly: the 401 that tells it to refresh, readable by its script.
    const expired = await fetch(`${host.url}/mcp`, {
      method: 'POST',
      headers: {
        ...LEGACY_HEADERS,
        origin: 'https://inspector.example',
        authorization: 'Bearer exa_gone',
      },
      body: initialize,
    });
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(expired.headers.get('access-control-expose-headers')).toContain('www-authenticate');
  });

  it('answers a browser preflight of /mcp from any origin, allowing the MCP headers and no credentials', async () => {
    for (const origin of ['http://localhost:6274', 'https://inspector.example']) {
      const response = await fetch(`${host.url}/mcp`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers':
            'authorization, content-type, mcp-protocol-version, mcp-method, mcp-name, mcp-session-id',
        },
      });
      expect(response.status, origin).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(response.headers.get('access-control-allow-methods')).toContain('POST');
      const allowed = (response.headers.get('access-control-allow-headers') ?? '').split(', ');
      for (const name of [
        'authorization',
        'content-type',
        'mcp-protocol-version',
        'mcp-method',
        'mcp-name',
        'mcp-session-id',
        'last-event-id',
      ])
        expect(allowed).toContain(name);
    }
  });

  it('exposes WWW-Authenticate, Mcp-Session-Id and Mcp-Protocol-Version on every /mcp answer, the 401 challenge included', async () => {
    const challenge = await fetch(`${host.url}/mcp`, {
      method: 'POST',
      headers: { ...LEGACY_HEADERS, origin: 'http://localhost:6274' },
      body: initialize,
    });
    expect(challenge.status).toBe(401);
    expect(challenge.headers.get('www-authenticate')).toContain('resource_metadata=');
    expect(challenge.headers.get('access-control-allow-origin')).toBe('*');
    expect(
      (challenge.headers.get('access-control-expose-headers') ?? '').split(', ').sort(),
    ).toEqual(['mcp-protocol-version', 'mcp-session-id', 'www-authenticate']);
  });

  it("accepts the public URL's host and configured hosts", async () => {
    const handler = createMcpFetchHandler({
      core: h.core,
      publicUrl: 'https://exhale.example.com/',
      allowedHosts: ['exhale.lan'],
    });
    for (const name of ['exhale.example.com', 'exhale.lan']) {
      const response = await handler(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { ...LEGACY_HEADERS, host: name, authorization: `Bearer ${token}` },
          body: initialize,
        }),
      );
      expect(response?.status).toBe(200);
    }
  });

  it('answers malformed JSON with a JSON-RPC parse error and no stack trace', async () => {
    const response = await fetch(`${host.url}/mcp`, {
      method: 'POST',
      headers: { ...LEGACY_HEADERS, authorization: `Bearer ${token}` },
      body: '{"jsonrpc":',
    });
    expect(response.status).toBe(400);
    const body = await response.text();
    expect(body).toContain('-32700');
    expect(body).not.toMatch(/\n\s+at /);
  });

  it('lets the host refuse an oversized body before MCP sees it', async () => {
    const small = await serve(createMcpFetchHandler({ core: h.core }), 1024);
    try {
      const response = await fetch(`${small.url}/mcp`, {
        method: 'POST',
        headers: { ...LEGACY_HEADERS, authorization: `Bearer ${token}` },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name: 'list_subscriptions', arguments: { text: 'x'.repeat(4000) } },
        }),
      });
      expect(response.status).toBe(413);
      // A chunked body has no length to check first: it is refused as it grows, with the same
      // answer, and nothing is logged as a failure.
      const errors: unknown[] = [];
      const spy = vi
        .spyOn(console, 'error')
        .mockImplementation((...args) => void errors.push(args));
      const chunks = new ReadableStream<Uint8Array>({
        pull(controller) {
          controller.enqueue(new TextEncoder().encode(' '.repeat(512)));
        },
      });
      const chunked = await fetch(`${small.url}/mcp`, {
        method: 'POST',
        headers: { ...LEGACY_HEADERS, authorization: `Bearer ${token}` },
        body: chunks,
        duplex: 'half',
      } as RequestInit);
      spy.mockRestore();
      expect(chunked.status).toBe(413);
      expect(errors).toEqual([]);
    } finally {
      await small.close();
    }
  });

  it('ends open listen streams on close, so the host can shut down', async () => {
    const handler = createMcpFetchHandler({ core: h.core });
    const own = await serve(handler);
    const client = new Client(
      { name: 'listener', version: '1' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${own.url}/mcp`), {
        authProvider: { token: async () => token },
      }),
    );
    const subscription = await client.listen({ resourceSubscriptions: ['exhale://context'] });
    await handler.close();
    await own.close();
    expect(await subscription.closed).not.toBe('local');
    await client.close();
  });

  it('leaves every other path to the next handler', async () => {
    const handler = createMcpFetchHandler({ core: h.core });
    for (const path of [
      '/',
      '/mcpx',
      '/mcp/other',
      '/api/subscriptions',
      '/.well-known/oauth-protected-resource',
    ]) {
      expect(
        await handler(new Request(`http://localhost${path}`, { headers: { host: 'localhost' } })),
      ).toBeNull();
    }
    const health = await fetch(`${host.url}/healthz`);
    expect(health.status).toBe(200);
  });
});
