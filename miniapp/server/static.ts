import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

import { Hono } from 'hono';

import type { EdgeEnv, RouteGroup } from '../../bot/http/app.ts';
import { t } from '../../core/index.ts';
import { browserLocale } from './respond.ts';

/**
 * Serves the built Mini App (`miniapp/dist`, or `appDir`) at `/app/`: a file when it exists, and
 * index.html for any other path under `/app/` so client routes survive a reload (paths under
 * `/app/assets/` that do not exist answer 404: a missing chunk must not come back as HTML).
 * Hashed assets are cached for a year; index.html is revalidated each time. HTML carries a strict
 * CSP (scripts only from this origin; framed only by Telegram's web clients).
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

async function fileIn(root: string, relative: string): Promise<string | null> {
  const full = path.resolve(root, relative);
  if (full !== root && !full.startsWith(root + path.sep)) return null;
  try {
    return (await stat(full)).isFile() ? full : null;
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
    const file = relative === '' ? null : await fileIn(root, relative);
    if (file) {
      const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
      const immutable = relative.startsWith('assets/');
      const headers: Record<string, string> =
        type === HTML_HEADERS['content-type']
          ? HTML_HEADERS
          : {
              'content-type': type,
              'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
              'x-content-type-options': 'nosniff',
            };
      return new Response(await readFile(file), { headers });
    }
    if (relative.startsWith('assets/')) return c.text('Not found', 404);
    const index = await fileIn(root, 'index.html');
    if (!index) return unavailable(c.req.header('accept-language'));
    return new Response(await readFile(index), { headers: HTML_HEADERS });
  });
  return group;
}
