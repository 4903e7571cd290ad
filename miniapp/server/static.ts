import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { Hono } from 'hono';

import type { EdgeEnv, RouteGroup } from '../../bot/http/app.ts';
import { t } from '../../core/index.ts';
import { browserLocale } from './respond.ts';

/**
 * Serves the built Mini App (`miniapp/dist`, or `appDir`) at `/app/`: a file when it exists, and
 * index.html for any other path under `/app/` so client routes survive a reload (paths under
 * `/app/assets/` that do not exist answer 404: a missing chunk must not come back as HTML).
 * Hashed assets are cached for a year; index.html is revalidated each time. Text files go out
 * gzipped when the client accepts it (compressed once, kept in memory). HTML carries a strict CSP
 * (scripts from this origin and index.html's own inline bootstrap by its hash; framed only by
 * Telegram's web clients).
 *
 * `ready` is the app's build when it was missing at start: requests wait for it, and when it
 * failed (or there is no app), `/app/` answers a 503 page saying so while the API keeps working.
 */
export interface AppServing {
  appDir: string;
  /** Resolves true when the app can be served (built, or was there), false when not. */
  ready: Promise<boolean>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
};

/** Scripts, styles, fetches and images from this origin only; framed only by Telegram's web clients. */
export const APP_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  // Vue's style bindings and the SDK's theme variables set styles from script (CSSOM, allowed);
  // inline `style` attributes in rendered HTML need this.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self' https://web.telegram.org https://*.telegram.org",
].join('; ');

const HTML_HEADERS = {
  'content-type': TYPES['.html'] ?? 'text/html',
  'cache-control': 'no-cache',
  'content-security-policy': APP_CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/**
 * The CSP of a page: `APP_CSP` with each of its inline scripts allowed by its SHA-256 (the first
 * screen's bootstrap in index.html starts the API call before the app's chunks arrive); any other
 * inline script, such as one injected into the page, is still refused.
 */
export function cspFor(html: string): string {
  const hashes = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map((m) => m[1] ?? '')
    .filter((body) => body.trim() !== '')
    .map((body) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  if (hashes.length === 0) return APP_CSP;
  return APP_CSP.replace("script-src 'self'", `script-src 'self' ${hashes.join(' ')}`);
}

/** Types worth compressing (text); images and fonts are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt']);

/** A file of the build as served: its bytes, gzipped once, and index.html's CSP. */
interface Served {
  mtimeMs: number;
  size: number;
  body: Buffer;
  gzip: Buffer | null;
  csp: string | null;
}

/**
 * Files of the build kept in memory once read (the app is a few hundred KB): a hashed asset never
 * changes under its name, so it is served from memory without touching the disk; other files are
 * checked against their mtime and size, so a rebuild is served at once.
 */
const served = new Map<string, Served>();

async function load(
  full: string,
  known: { mtimeMs: number; size: number } | null,
): Promise<Served> {
  const info = known ?? (await stat(full));
  const kept = served.get(full);
  if (kept && kept.mtimeMs === info.mtimeMs && kept.size === info.size) return kept;
  const body = await readFile(full);
  const ext = path.extname(full);
  const entry: Served = {
    mtimeMs: info.mtimeMs,
    size: info.size,
    body,
    gzip: COMPRESSIBLE.has(ext) && body.length > 1024 ? gzipSync(body, { level: 9 }) : null,
    csp: ext === '.html' ? cspFor(body.toString('utf8')) : null,
  };
  served.set(full, entry);
  return entry;
}

/** The response for a kept file: gzipped when the client accepts it. */
function respond(file: Served, headers: Record<string, string>, acceptEncoding: string): Response {
  const all: Record<string, string> = { ...headers };
  if (file.csp !== null) all['content-security-policy'] = file.csp;
  if (file.gzip !== null) all.vary = 'accept-encoding';
  if (file.gzip !== null && /\bgzip\b/.test(acceptEncoding)) {
    all['content-encoding'] = 'gzip';
    return new Response(new Uint8Array(file.gzip), { headers: all });
  }
  return new Response(new Uint8Array(file.body), { headers: all });
}

/** The file of the build at `relative` (with its stat, null for a kept hashed asset), or null. */
async function fileIn(
  root: string,
  relative: string,
): Promise<{ full: string; info: { mtimeMs: number; size: number } | null } | null> {
  const full = path.resolve(root, relative);
  if (full !== root && !full.startsWith(root + path.sep)) return null;
  if (relative.startsWith('assets/') && served.has(full)) return { full, info: null };
  try {
    const info = await stat(full);
    return info.isFile() ? { full, info } : null;
  } catch {
    return null;
  }
}

function unavailable(acceptLanguage: string | undefined): Response {
  const locale = browserLocale(acceptLanguage);
  const title = t(locale, 'web.app.unavailable_title');
  const text = t(locale, 'web.app.unavailable');
  const escape = (s: string) =>
    s.replace(
      /[&<>"]/g,
      (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch] ?? ch,
    );
  const html = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)}</title></head><body style="font-family: system-ui, sans-serif; max-width: 36rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5"><h1>${escape(title)}</h1><p>${escape(text)}</p></body></html>`;
  return new Response(html, { status: 503, headers: { ...HTML_HEADERS, 'retry-after': '30' } });
}

export function appRoutes(serving: AppServing): RouteGroup {
  const root = path.resolve(serving.appDir);
  const group = new Hono<EdgeEnv>();
  group.get('*', async (c) => {
    const url = new URL(c.req.url);
    if (c.req.path === '/app') return c.redirect(`/app/${url.search}`, 301);
    if (!(await serving.ready)) return unavailable(c.req.header('accept-language'));
    let relative: string;
    try {
      relative = decodeURIComponent(c.req.path.slice('/app/'.length));
    } catch {
      return c.text('Not found', 404);
    }
    const encoding = c.req.header('accept-encoding') ?? '';
    const file = relative === '' ? null : await fileIn(root, relative);
    if (file) {
      const type = TYPES[path.extname(file.full)] ?? 'application/octet-stream';
      const immutable = relative.startsWith('assets/');
      const headers: Record<string, string> =
        type === HTML_HEADERS['content-type']
          ? HTML_HEADERS
          : {
              'content-type': type,
              'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
              'x-content-type-options': 'nosniff',
            };
      return respond(await load(file.full, file.info), headers, encoding);
    }
    if (relative.startsWith('assets/')) return c.text('Not found', 404);
    const index = await fileIn(root, 'index.html');
    if (!index) return unavailable(c.req.header('accept-language'));
    return respond(await load(index.full, index.info), HTML_HEADERS, encoding);
  });
  return group;
}
