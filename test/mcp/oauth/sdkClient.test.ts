import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ExhaleServer, runExhale, startExhaleProcess } from '../../helpers/exhaleProcess.ts';
import {
  connectCodeFromTerminal,
  consentInBrowser as consentWith,
  type MemoryProvider,
  memoryProvider as memoryProvider_,
} from './sdkFlow.ts';
import { PNG, startTlsHost, type TlsHost } from './tlsHost.ts';

/** The client's loopback redirect URI (RFC 8252): a real listener, as a desktop client runs one. */
let CALLBACK = 'http://127.0.0.1:0/callback';
let callbackServer: Server;

const memoryProvider = (clientMetadataUrl?: string): MemoryProvider =>
  memoryProvider_(() => CALLBACK, clientMetadataUrl);

describe('a real MCP client connecting through OAuth to a running exhale', () => {
  let dir: string;
  let env: Record<string, string>;
  let exhale: ExhaleServer;
  let tls: TlsHost;
  let browser: Browser;

  beforeAll(async () => {
    callbackServer = createServer((_req, res) => res.end('done'));
    await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
    const where = callbackServer.address();
    CALLBACK = `http://127.0.0.1:${where && typeof where === 'object' ? where.port : 0}/callback`;
    dir = mkdtempSync(path.join(tmpdir(), 'exhale-oauth-'));
    tls = await startTlsHost();
    env = { EXHALE_DATA_DIR: dir };
    const init = await runExhale(env, [
      'init',
      ...['--name', 'Home', '--currency', 'EUR', '--time-zone', 'Europe/Madrid', '--owner', 'Ana'],
    ]);
    expect(init.code).toBe(0);
    exhale = await startExhaleProcess({
      ...env,
      NODE_EXTRA_CA_CERTS: tls.caFile,
      EXHALE_OAUTH_TRUSTED_DOCUMENT_HOSTS: 'localhost',
    });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    exhale?.kill('SIGTERM');
    await exhale?.exited;
    await tls?.close();
    callbackServer?.closeAllConnections();
    await new Promise<void>((resolve) => callbackServer?.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  /** The consent page in Chromium; nothing on it may be blocked by its CSP. */
  async function consentInBrowser(authUrl: URL, code: string): Promise<URL> {
    const { callback, blocked } = await consentWith(browser, authUrl, code, CALLBACK);
    expect(blocked).toEqual([]);
    return callback;
  }

  async function connectWith(provider: ReturnType<typeof memoryProvider>, seen: string[]) {
    const url = new URL(`${exhale.url}/mcp`);
    const logging: typeof fetch = async (input, init) => {
      seen.push(
        `${init?.method ?? 'GET'} ${new URL(String(input instanceof Request ? input.url : input)).pathname}`,
      );
      return fetch(input, init);
    };
    let transport = new StreamableHTTPClientTransport(url, {
      authProvider: provider,
      fetch: logging,
    });
    let client = new Client({ name: 'sdk-e2e', version: '1.0.0' });
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authUrl).toBeDefined();
    const authUrl = provider.authUrl as URL;
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('resource')).toBe(`${exhale.url}/mcp`);
    const callback = await consentInBrowser(authUrl, await connectCodeFromTerminal(env));
    expect(callback.searchParams.get('iss')).toBe(exhale.url);
    await transport.finishAuth(callback.searchParams);
    transport = new StreamableHTTPClientTransport(url, { authProvider: provider, fetch: logging });
    client = new Client({ name: 'sdk-e2e', version: '1.0.0' });
    await client.connect(transport);
    return client;
  }

  it('connects with dynamic client registration, then calls tools as the member', async () => {
    const provider = memoryProvider();
    const seen: string[] = [];
    const client = await connectWith(provider, seen);
    const created = await client.callTool({
      name: 'create_subscription',
      arguments: { name: 'Netflix', amount: '15.99' },
    });
    expect(created.isError).toBeFalsy();
    const apps = await client.callTool({ name: 'list_connected_apps', arguments: {} });
    expect(JSON.stringify(apps.structuredContent)).toContain('SDK e2e');
    expect(seen).toEqual(
      expect.arrayContaining([
        'POST /mcp',
        'GET /.well-known/oauth-protected-resource/mcp',
        'GET /.well-known/oauth-authorization-server',
        'POST /oauth/register',
        'POST /oauth/token',
      ]),
    );
    await client.close();
  }, 120_000);

  it('connects with a Client ID Metadata Document over https (no registration), and disconnecting ends it', async () => {
    const id = `${tls.url}/oauth/client.json`;
    tls.serve(
      '/oauth/client.json',
      JSON.stringify({
        client_id: id,
        client_name: 'SDK e2e (document)',
        // Fetched by exhale, inlined as a data: URI: Chromium must block nothing on the page.
        logo_uri: `${tls.url}/oauth/logo.png`,
        redirect_uris: [CALLBACK],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
      { 'cache-control': 'max-age=300' },
    );
    tls.serve('/oauth/logo.png', PNG, { 'content-type': 'image/png' });
    const provider = memoryProvider(id);
    const seen: string[] = [];
    const client = await connectWith(provider, seen);
    expect(seen).not.toContain('POST /oauth/register');
    expect(tls.requests).toContain('/oauth/client.json');
    expect(tls.requests).toContain('/oauth/logo.png');
    const listed = await client.callTool({ name: 'list_connected_apps', arguments: {} });
    const items = (
      listed.structuredContent as { items: Array<{ id: string; client_name: string }> }
    ).items;
    const mine = items.find((i) => i.client_name === 'SDK e2e (document)');
    expect(mine).toBeDefined();
    // The person disconnects it from the terminal (the CLI runs the same op as the chat button).
    const off = await runExhale(env, ['op', 'disconnect_app', JSON.stringify({ id: mine?.id })]);
    expect(off.code, off.stderr).toBe(0);
    const after = await fetch(`${exhale.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${(provider.stored.tokens as { access_token: string }).access_token}`,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(after.status).toBe(401);
    // The client tries its refresh token, and hears why it cannot go on.
    await expect(client.listTools()).rejects.toThrow(/the grant was disconnected/);
  }, 120_000);

  it('shows an error page for a document that is too large, too slow, names another client_id, or is not JSON', async () => {
    const doc = (id: string, extra: Record<string, unknown> = {}) =>
      JSON.stringify({ client_id: id, client_name: 'Bad', redirect_uris: [CALLBACK], ...extra });
    tls.serve('/big.json', doc(`${tls.url}/big.json`, { padding: 'x'.repeat(64 * 1024) }));
    tls.serve('/slow.json', 'hang');
    tls.serve('/other.json', doc('https://claude.ai/oauth/client.json'));
    tls.serve('/text.json', 'hello');
    for (const [file, reason] of [
      ['/big.json', 'too large'],
      ['/slow.json', 'took too long'],
      ['/other.json', 'names another client_id'],
      ['/text.json', 'not JSON'],
    ] as const) {
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: `${tls.url}${file}`,
        redirect_uri: CALLBACK,
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        resource: `${exhale.url}/mcp`,
      });
      const response = await fetch(`${exhale.url}/oauth/authorize?${query.toString()}`, {
        redirect: 'manual',
      });
      expect(response.status, file).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.text()).toContain(reason);
    }
  }, 60_000);
});
