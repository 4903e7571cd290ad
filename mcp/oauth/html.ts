import { createHash } from 'node:crypto';

/** Escapes text for HTML element content and double-quoted attributes. */
export function esc(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** The page's one stylesheet, inline, allowed by its hash (no 'unsafe-inline'). */
export const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f7f6;color:#12302c}
main{max-width:30rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px #0002;overflow-wrap:anywhere}
h1{font-size:1.3rem;margin:0 0 1rem}.mono{display:inline-block;width:2.5rem;height:2.5rem;border-radius:8px;background:#0f766e;color:#fff;text-align:center;line-height:2.5rem;font-weight:700;margin-right:.5rem;vertical-align:middle}
img.mono{object-fit:contain;background:#fff}
.tag{font-size:.8rem;background:#fde68a;color:#713f12;border-radius:4px;padding:0 .3rem;margin-left:.3rem}
.host{font-family:ui-monospace,monospace;background:#eef;padding:0 .2rem;border-radius:3px}
fieldset{border:1px solid #ccd;border-radius:8px;margin:1rem 0}label{display:block;margin:.3rem 0}
input[type=text]{font:1.2rem ui-monospace,monospace;letter-spacing:.15rem;width:12rem;padding:.3rem;text-transform:uppercase}
.err{color:#991b1b;font-weight:600}.hint{color:#456;font-size:.9rem}
button{font-size:1rem;padding:.5rem 1.2rem;border-radius:8px;border:1px solid #0f766e;margin-right:.5rem}
button[value=allow]{background:#0f766e;color:#fff}button[value=deny]{background:#fff;color:#0f766e}`;

const STYLE_HASH = createHash('sha256').update(STYLE).digest('base64');

/**
 * The headers of every page the authorization server renders: no script at all, nothing loaded
 * from elsewhere (images only as `data:` URIs: the client's logo, fetched by the server), no framing (clickjacking), forms posting only here and, for the redirect that
 * answers them, to the client's `redirect_uri` (Chromium checks `form-action` on that redirect too).
 */
export function pageHeaders(formTargets: readonly string[] = []): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': [
      "default-src 'none'",
      `style-src 'sha256-${STYLE_HASH}'`,
      'img-src data:',
      `form-action 'self'${formTargets.map((t) => ` ${t}`).join('')}`,
      "frame-ancestors 'none'",
      "base-uri 'none'",
    ].join('; '),
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

export function page(lang: string, title: string, body: string): string {
  return `<!doctype html><html lang="${esc(lang)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}
