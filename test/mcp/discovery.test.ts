import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { offeredOn } from '../../core/kernel/op.ts';
import { catalog } from '../../core/ops/catalog.ts';
import { PROTOCOL_REVISIONS } from '../../mcp/protocol.ts';
import { createMcpTestHousehold, type McpTestHousehold } from './helpers.ts';

const BASE = 'https://exhale.example.com';

describe('MCP discovery documents', () => {
  let h: McpTestHousehold;
  beforeEach(async () => {
    h = await createMcpTestHousehold({ publicUrl: `${BASE}/` });
  });
  afterEach(async () => h.closeAll());

  const get = (path: string, headers: Record<string, string> = {}) =>
    h.send(path, { headers: { host: 'exhale.example.com', ...headers } });

  it.each([
    ['/mcp/server-card', 'application/mcp-server-card+json'],
    ['/.well-known/mcp/server-card.json', 'application/mcp-server-card+json'],
    ['/.well-known/ai-catalog.json', 'application/json'],
    [
      '/.well-known/api-catalog',
      'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
    ],
    ['/auth.md', 'text/markdown; charset=utf-8'],
    ['/llms.txt', 'text/plain; charset=utf-8'],
    ['/mcp/icon.svg', 'image/svg+xml'],
  ])('serves %s publicly, cacheable, with an ETag and 304 on If-None-Match', async (path, type) => {
    const response = await get(path);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    const etag = response.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await response.text()).length).toBeGreaterThan(100);
    const again = await get(path, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect((await get(path, { 'if-none-match': `"other", W/${etag}` })).status).toBe(304);
    expect((await get(path, { 'if-none-match': '"other"' })).status).toBe(200);
    const head = await h.send(path, { method: 'HEAD', headers: { host: 'exhale.example.com' } });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toBe(etag);
    const post = await h.send(path, {
      method: 'POST',
      headers: { host: 'exhale.example.com' },
      body: '{}',
    });
    expect(post.status).toBe(405);
  });

  it('describes one identity, endpoint and protocol revisions in the server card, as serverInfo does', async () => {
    const card = (await (await get('/mcp/server-card')).json()) as Record<string, unknown> & {
      remotes: Array<Record<string, unknown>>;
      tools: Array<{ name: string }>;
      prompts: Array<{ name: string }>;
    };
    expect(card).toMatchObject({
      name: 'com.example.exhale/exhale',
      title: 'Exhale',
      websiteUrl: BASE,
    });
    expect(card.remotes).toEqual([
      expect.objectContaining({
        type: 'streamable-http',
        url: `${BASE}/mcp`,
        supportedProtocolVersions: PROTOCOL_REVISIONS,
        authentication: { required: true, schemes: ['oauth2', 'bearer'] },
      }),
    ]);
    expect(PROTOCOL_REVISIONS).toEqual(expect.arrayContaining(['2026-07-28', '2025-11-25']));
    expect(card.tools.map((t) => t.name)).toEqual(
      catalog.filter((op) => offeredOn(op, 'mcp')).map((op) => op.name),
    );
    expect(card.prompts).toHaveLength(5);
    const client = await h.connect((await h.token('read')).token, 'modern');
    const info = client.getServerVersion();
    expect(info).toMatchObject({
      name: 'exhale',
      title: card.title,
      version: card.version,
      description: card.description,
      websiteUrl: BASE,
    });
    expect(info?.icons).toEqual(card.icons);
  });

  it('points the AI catalog and the RFC 9727 API catalog at the card and the endpoint', async () => {
    const ai = (await (await get('/.well-known/ai-catalog.json')).json()) as {
      entries: Array<Record<string, unknown>>;
    };
    expect(ai.entries).toEqual([
      expect.objectContaining({
        type: 'application/mcp-server-card+json',
        url: `${BASE}/mcp/server-card`,
        identifier: 'urn:air:exhale.example.com:mcp:exhale',
      }),
    ]);
    const api = (await (await get('/.well-known/api-catalog')).json()) as {
      linkset: Array<Record<string, unknown>>;
    };
    expect(api.linkset[0]).toEqual({
      anchor: `${BASE}/.well-known/api-catalog`,
      item: [{ href: `${BASE}/mcp`, title: 'Exhale MCP server' }],
    });
    expect(api.linkset[1]).toMatchObject({
      anchor: `${BASE}/mcp`,
      'service-desc': [{ href: `${BASE}/mcp/server-card` }],
    });
  });

  it('explains tokens in auth.md and lists tools, resources and prompts in llms.txt', async () => {
    const auth = await (await get('/auth.md')).text();
    expect(auth).toContain(`${BASE}/mcp`);
    expect(auth).toContain('exhale token create');
    expect(auth).toContain('insufficient_scope');
    const llms = await (await get('/llms.txt')).text();
    expect(llms).toMatch(/^# Exhale\n\n> /);
    expect(llms).toContain('`list_subscriptions`');
    expect(llms).toContain('exhale://context');
    expect(llms).toContain('`monthly_review`');
    expect(llms).not.toContain('`create_token`');
    // Each tool says what calling it takes, and its first sentence is whole ("e.g." ends none).
    expect(llms).toContain('- `create_subscription` (write token): ');
    expect(llms).toContain('- `delete_subscription` (destructive; write token): ');
    expect(llms).not.toMatch(/e\.g\.\n/);
  });

  it('names a server reached by its address under "local", not a reversed IP', async () => {
    const local = await createMcpTestHousehold({ publicUrl: 'http://127.0.0.1:8080' });
    try {
      const card = (await (
        await local.send('/mcp/server-card', { headers: { host: '127.0.0.1:8080' } })
      ).json()) as { name: string };
      expect(card.name).toBe('local/exhale');
    } finally {
      await local.closeAll();
    }
  });

  it('needs no token and refuses a foreign Host', async () => {
    expect((await get('/llms.txt')).status).toBe(200);
    expect((await h.send('/llms.txt', { headers: { host: 'evil.example' } })).status).toBe(403);
  });
});
