import { spawn } from 'node:child_process';
import { request } from 'node:https';

import type { OAuthClientProvider } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';

import { BIN } from '../../helpers/exhaleProcess.ts';

/** A client's OAuth state between runs, in memory; `authUrl` is where it would send the person. */
export type MemoryProvider = OAuthClientProvider & {
  authUrl?: URL;
  stored: Record<string, unknown>;
};

/**
 * An SDK OAuth client provider that keeps everything in memory, as a desktop client would on disk:
 * a public client (no secret) with one loopback redirect URI, registered dynamically unless
 * `clientMetadataUrl` names its Client ID Metadata Document.
 */
export function memoryProvider(
  callback: () => string,
  clientMetadataUrl?: string,
  name = 'SDK e2e',
): MemoryProvider {
  const stored: Record<string, unknown> = {};
  const provider: MemoryProvider = {
    stored,
    get redirectUrl() {
      return callback();
    },
    ...(clientMetadataUrl ? { clientMetadataUrl } : {}),
    get clientMetadata() {
      return {
        client_name: name,
        redirect_uris: [callback()],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      };
    },
    clientInformation: () => stored.client as never,
    saveClientInformation: (c) => void (stored.client = c),
    tokens: () => stored.tokens as never,
    saveTokens: (t) => void (stored.tokens = t),
    redirectToAuthorization: (u) => void (provider.authUrl = u),
    saveCodeVerifier: (v) => void (stored.verifier = v),
    codeVerifier: () => String(stored.verifier),
  };
  return provider;
}

/** `/connect` in the terminal chat (`exhale chat`), as a person would: the code it shows. */
export async function connectCodeFromTerminal(env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'chat'], {
    env: { ...process.env, ...env, EXHALE_ECB_RATES: 'off' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  const code = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /\b([0-9A-Z]{4}-[0-9A-Z]{4})\b/.exec(out);
      if (found?.[1]) resolve(found[1]);
    });
    child.once('exit', () => reject(new Error(`exhale chat ended without a code:\n${out}`)));
    child.stdin.write('/connect\n');
  });
  child.stdin.end('/quit\n');
  return code;
}

/**
 * The consent page in Chromium: types the code, keeps the scope, presses Allow; returns the
 * callback URL it lands on, and fails on anything the page's CSP blocked.
 */
export async function consentInBrowser(
  browser: Browser,
  authUrl: URL,
  code: string,
  callbackPrefix: string,
  options: { lang?: string; ignoreHTTPSErrors?: boolean } = {},
): Promise<{ callback: URL; blocked: string[] }> {
  const context = await browser.newContext({
    locale: options.lang ?? 'en-US',
    ignoreHTTPSErrors: options.ignoreHTTPSErrors ?? false,
  });
  const page = await context.newPage();
  const blocked: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) blocked.push(m.text());
  });
  await page.goto(authUrl.href);
  await page.fill('input[name=connect_code]', code);
  await Promise.all([page.waitForURL(`${callbackPrefix}**`), page.click('button[value=allow]')]);
  const callback = new URL(page.url());
  await context.close();
  return { callback, blocked };
}

/**
 * A `fetch` that trusts one more CA (`ca`, PEM), for the test process itself: NODE_EXTRA_CA_CERTS
 * is read only when a process starts, and a child process gets it that way instead. Bodies are
 * strings or absent (what the SDK client sends); the answer is buffered.
 */
export function fetchTrusting(ca: string): typeof fetch {
  return async (input, init) => {
    const req = new Request(input, init);
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    return new Promise<Response>((resolve, reject) => {
      const headers: Record<string, string> = {};
      req.headers.forEach((v, k) => (headers[k] = v));
      const sent = request(req.url, { method: req.method, headers, ca }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const out = new Headers();
          for (const [k, v] of Object.entries(res.headers))
            for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v]) out.append(k, one);
          const status = res.statusCode ?? 500;
          const empty = status === 204 || status === 304;
          resolve(new Response(empty ? null : Buffer.concat(chunks), { status, headers: out }));
        });
        res.on('error', reject);
      });
      sent.on('error', reject);
      sent.end(body);
    });
  };
}
