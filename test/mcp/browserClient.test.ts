import { createServer, type Server } from 'node:http';

import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { createTestHousehold, type TestHousehold } from '../helpers/testCore.ts';
import { type AsHarness, asHarness } from './oauth/harness.ts';

/**
 * A browser-based MCP client (a web Inspector, an agent in a page) calling Exhale straight from
 * its page in Chromium: CORS preflights, the 401 challenge its script must read, the OAuth
 * endpoints, and `/mcp` with its bearer token. Its page is on another site than Exhale
 * (`inspector.test`, mapped to 127.0.0.1 inside the browser), so the browser sends its Origin.
 */
describe('a browser-based MCP client on another site', () => {
  let browser: Browser;
  let site: Server;
  let siteUrl: string;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      headless: true,
      args: ['--host-resolver-rules=MAP inspector.test 127.0.0.1'],
    });
    site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<p>inspector</p>');
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const where = site.address();
    siteUrl = `http://inspector.test:${where && typeof where === 'object' ? where.port : 0}`;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    site?.closeAllConnections();
    await new Promise<void>((resolve) => site?.close(() => resolve()));
  });

  let h: TestHousehold;
  let as: AsHarness;
  let exhaleUrl: string;
  let page: Page;
  beforeEach(async () => {
    h = await createTestHousehold();
    as = asHarness(h.core);
    exhaleUrl = await as.listen();
    page = await browser.newPage();
    await page.goto(siteUrl);
  });
  afterEach(async () => {
    await page.close();
    await as.close();
    await h.close();
  });

  const Answer = z.object({
    status: z.number(),
    challenge: z.string().nullable(),
    body: z.string(),
  });

  /** A fetch made by the page's own script: what it can read of the answer, or the CORS failure. */
  async function fromPage(path: string, init: Record<string, unknown>) {
    const result: unknown = await page.evaluate(
      `fetch(${JSON.stringify(`${exhaleUrl}${path}`)}, ${JSON.stringify(init)}).then(
        async (r) => ({ status: r.status, challenge: r.headers.get('www-authenticate'), body: await r.text() }),
        (e) => ({ status: 0, challenge: null, body: String(e) }),
      )`,
    );
    return Answer.parse(result);
  }

  const initialize = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'inspector', version: '1' },
    },
  });
  const mcpHeaders = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
    'mcp-method': 'initialize',
  };

  it('discovers and registers through the OAuth endpoints, whose preflights allow the MCP headers', async () => {
    const prm = await fromPage('/.well-known/oauth-protected-resource/mcp', {
      headers: { 'mcp-protocol-version': '2025-11-25' },
    });
    expect(prm.status).toBe(200);
    const registered = await fromPage('/oauth/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({
        client_name: 'Inspector',
        redirect_uris: [`${siteUrl}/oauth/callback`.replace('inspector.test', 'localhost')],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(registered.status, registered.body).toBe(201);
    const token = await fromPage('/oauth/token', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'mcp-protocol-version': '2025-11-25',
        'mcp-method': 'x',
        'mcp-name': 'y',
      },
      body: 'grant_type=refresh_token&refresh_token=exr_x&client_id=exhale_x',
    });
    // Past the preflight: the endpoint's own answer, readable by the script.
    expect(token.status).toBe(401);
    expect(JSON.parse(token.body)).toMatchObject({ error: 'invalid_client' });
  });

  it('calls /mcp with its bearer token, reads the 401 challenge of a stale one, and is refused without one', async () => {
    const { output } = await h.core.invoke('create_token', h.owner, {
      name: 'inspector',
      scope: 'read',
    });
    const called = await fromPage('/mcp', {
      method: 'POST',
      headers: { ...mcpHeaders, authorization: `Bearer ${output.token}` },
      body: initialize,
    });
    expect(called.status, called.body).toBe(200);
    expect(called.body).toContain('"serverInfo"');
    const stale = await fromPage('/mcp', {
      method: 'POST',
      headers: { ...mcpHeaders, authorization: 'Bearer exa_stale' },
      body: initialize,
    });
    expect(stale.status).toBe(401);
    expect(stale.challenge).toContain('error="invalid_token"');
    // Without a token, a page of another site is refused (Origin check), and can read that it was.
    const bare = await fromPage('/mcp', { method: 'POST', headers: mcpHeaders, body: initialize });
    expect(bare.status).toBe(403);
  });

  it('on this machine (a web Inspector on localhost), starts OAuth from the 401 challenge its script reads', async () => {
    await page.goto(siteUrl.replace('inspector.test', 'localhost'));
    const challenged = await fromPage('/mcp', {
      method: 'POST',
      headers: mcpHeaders,
      body: initialize,
    });
    expect(challenged.status).toBe(401);
    expect(challenged.challenge).toContain(
      'resource_metadata="http://localhost:8080/.well-known/oauth-protected-resource/mcp"',
    );
  });
});
