import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

import {
  type ExhaleServer,
  freePort,
  runExhale,
  startExhaleProcess,
} from '../../helpers/exhaleProcess.ts';
import {
  connectCodeFromTerminal,
  consentInBrowser,
  fetchTrusting,
  memoryProvider,
} from './sdkFlow.ts';

/** Whether Caddy is installed; CI sets EXHALE_TEST_REQUIRE_CADDY=1 so its absence fails there. */
function hasCaddy(): boolean {
  try {
    execFileSync('caddy', ['version'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}
const REQUIRED = process.env.EXHALE_TEST_REQUIRE_CADDY === '1';
const DOCS = new URL('../../../docs/remote-agents.md', import.meta.url);

/** The Caddyfiles docs/remote-agents.md shows, in order: the public one, the one-machine one. */
function documentedCaddyfiles(): string[] {
  const text = readFileSync(DOCS, 'utf8');
  return [...text.matchAll(/```caddyfile\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
}

describe.runIf(hasCaddy() || REQUIRED)(
  'docs/remote-agents.md: exhale behind Caddy (tls internal), a real client over https',
  () => {
    let dir: string;
    let env: Record<string, string>;
    let exhale: ExhaleServer;
    let caddy: ChildProcess;
    let caddyLog = '';
    let publicUrl: string;
    let trusted: typeof fetch;
    let browser: Browser;
    let callbackServer: Server;
    let callback = '';

    beforeAll(async () => {
      if (!hasCaddy())
        throw new Error(
          'EXHALE_TEST_REQUIRE_CADDY=1 but caddy is not on PATH (apt-get install caddy)',
        );
      dir = mkdtempSync(path.join(tmpdir(), 'exhale-caddy-'));
      callbackServer = createServer((_req, res) => res.end('done'));
      await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
      const where = callbackServer.address();
      callback = `http://127.0.0.1:${where && typeof where === 'object' ? where.port : 0}/callback`;

      env = { EXHALE_DATA_DIR: path.join(dir, 'data') };
      const init = await runExhale(env, [
        'init',
        ...[
          '--name',
          'Home',
          '--currency',
          'EUR',
          '--time-zone',
          'Europe/Madrid',
          '--owner',
          'Ana',
        ],
      ]);
      expect(init.code, init.stderr).toBe(0);
      const caddyPort = await freePort();
      publicUrl = `https://localhost:${caddyPort}`;
      exhale = await startExhaleProcess({
        ...env,
        EXHALE_PUBLIC_URL: publicUrl,
        EXHALE_TRUST_PROXY: 'on',
      });

      const local = documentedCaddyfiles().find((f) => f.includes('tls internal'));
      if (!local) throw new Error('docs/remote-agents.md shows no Caddyfile with tls internal');
      const file = path.join(dir, 'Caddyfile');
      writeFileSync(file, local);
      caddy = spawn('caddy', ['run', '--config', file, '--adapter', 'caddyfile'], {
        env: {
          ...process.env,
          HOME: dir,
          XDG_DATA_HOME: path.join(dir, 'share'),
          XDG_CONFIG_HOME: path.join(dir, 'config'),
          EXHALE_SITE: `localhost:${caddyPort}`,
          EXHALE_UPSTREAM: new URL(exhale.url).host,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      await new Promise<void>((resolve, reject) => {
        const onData = (chunk: Buffer): void => {
          caddyLog += chunk.toString();
          if (caddyLog.includes('certificate obtained successfully')) resolve();
        };
        caddy.stdout?.on('data', onData);
        caddy.stderr?.on('data', onData);
        caddy.once('exit', (code) => reject(new Error(`caddy exited (${code}):\n${caddyLog}`)));
      });
      const root = readFileSync(
        path.join(dir, 'share', 'caddy', 'pki', 'authorities', 'local', 'root.crt'),
        'utf8',
      );
      trusted = fetchTrusting(root);
      browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true });
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      if (caddy && caddy.exitCode === null) {
        const gone = new Promise((resolve) => caddy.once('exit', resolve));
        caddy.kill('SIGTERM');
        await gone;
      }
      exhale?.kill('SIGTERM');
      await exhale?.exited;
      if (callbackServer) {
        callbackServer.closeAllConnections();
        await new Promise<void>((resolve) => callbackServer.close(() => resolve()));
      }
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('the public Caddyfile the docs show is one Caddy accepts', () => {
      const [publicFile] = documentedCaddyfiles();
      expect(publicFile).toContain('reverse_proxy 127.0.0.1:8080');
      const file = path.join(dir, 'Caddyfile.public');
      writeFileSync(file, publicFile ?? '');
      const adapted = execFileSync('caddy', ['adapt', '--config', file, '--adapter', 'caddyfile'], {
        stdio: 'pipe',
      }).toString();
      expect(adapted).toContain('exhale.example.com');
      expect(adapted).toContain('127.0.0.1:8080');
    });

    it('names itself with the https URLs in the 401 and both metadata documents', async () => {
      const denied = await trusted(`${publicUrl}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      expect(denied.status).toBe(401);
      expect(denied.headers.get('www-authenticate')).toContain(
        `resource_metadata="${publicUrl}/.well-known/oauth-protected-resource/mcp"`,
      );
      const prm = (await (
        await trusted(`${publicUrl}/.well-known/oauth-protected-resource/mcp`)
      ).json()) as { resource: string; authorization_servers: string[] };
      expect(prm.resource).toBe(`${publicUrl}/mcp`);
      expect(prm.authorization_servers).toEqual([publicUrl]);
      const asm = (await (
        await trusted(`${publicUrl}/.well-known/oauth-authorization-server`)
      ).json()) as Record<string, unknown>;
      expect(asm.issuer).toBe(publicUrl);
      for (const key of [
        'authorization_endpoint',
        'token_endpoint',
        'registration_endpoint',
        'revocation_endpoint',
      ])
        expect(String(asm[key]), key).toMatch(new RegExp(`^${publicUrl}/oauth/`));
    });

    it('runs the SDK client’s OAuth flow (DCR, consent with a connect code) through Caddy, then MCP calls', async () => {
      const provider = memoryProvider(() => callback, undefined, 'SDK via Caddy');
      const url = new URL(`${publicUrl}/mcp`);
      const seen: string[] = [];
      const logging: typeof fetch = (input, init) => {
        seen.push(
          `${init?.method ?? 'GET'} ${new URL(String(input instanceof Request ? input.url : input)).href}`,
        );
        return trusted(input, init);
      };
      let transport = new StreamableHTTPClientTransport(url, {
        authProvider: provider,
        fetch: logging,
      });
      let client = new Client({ name: 'sdk-caddy', version: '1.0.0' });
      await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);
      const authUrl = provider.authUrl;
      if (!authUrl) throw new Error('the client was not sent to the consent page');
      expect(authUrl.origin).toBe(publicUrl);
      expect(authUrl.searchParams.get('resource')).toBe(`${publicUrl}/mcp`);
      const { callback: landed, blocked } = await consentInBrowser(
        browser,
        authUrl,
        await connectCodeFromTerminal(env),
        callback,
        { ignoreHTTPSErrors: true },
      );
      expect(blocked).toEqual([]);
      expect(landed.searchParams.get('iss')).toBe(publicUrl);
      await transport.finishAuth(landed.searchParams);
      transport = new StreamableHTTPClientTransport(url, {
        authProvider: provider,
        fetch: logging,
      });
      client = new Client({ name: 'sdk-caddy', version: '1.0.0' });
      await client.connect(transport);
      const created = await client.callTool({
        name: 'create_subscription',
        arguments: { name: 'Netflix', amount: '15.99' },
      });
      expect(created.isError).toBeFalsy();
      const apps = await client.callTool({ name: 'list_connected_apps', arguments: {} });
      expect(JSON.stringify(apps.structuredContent)).toContain('SDK via Caddy');
      // Every request the client made went to the https URL, through Caddy.
      expect(seen.length).toBeGreaterThan(4);
      for (const line of seen) expect(line).toContain(` ${publicUrl}/`);
      expect(seen).toContain(`POST ${publicUrl}/oauth/register`);
      await client.close();
    }, 120_000);
  },
);
