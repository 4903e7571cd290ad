/**
 * Redirect URIs (OAuth 2.1 §2.3.1, RFC 8252): registered values are https, http on a loopback
 * address, or a private-use scheme of a native app; never with a fragment or user info. A
 * requested URI matches a registered one exactly, except that on a loopback host (`127.0.0.1`,
 * `[::1]`, `localhost`) the port may differ (RFC 8252 §7.3).
 *
 * Private-use schemes: RFC 8252 §7.1 says a scheme SHOULD be a reverse domain
 * (`com.example.app:/cb`), but real clients register short ones (Cursor
 * `cursor://anysphere.cursor-mcp/oauth/callback`, VS Code `vscode://…`), so any scheme is taken
 * except those that are no app's callback: schemes that run or carry content in the browser
 * (`javascript:`, `vbscript:`, `data:`, `blob:`, `filesystem:`, `about:`, `view-source:`), the
 * browser's own pages, and the web's other special schemes (`file:`, `ftp:`, `ws:`, `wss:`); and
 * the URI must have an authority or a path from `/`, as an app callback does (`mailto:a@b` or
 * `tel:1` could be none).
 */
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

const NOT_APP_SCHEMES = new Set([
  'javascript:',
  'vbscript:',
  'data:',
  'blob:',
  'filesystem:',
  'about:',
  'view-source:',
  'file:',
  'ftp:',
  'ws:',
  'wss:',
  'chrome:',
  'chrome-untrusted:',
  'edge:',
  'devtools:',
]);

export function redirectUriProblem(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `${uri} is not a URL`;
  }
  if (url.hash !== '' || uri.includes('#')) return `${uri} has a fragment`;
  if (url.username !== '' || url.password !== '') return `${uri} carries user info`;
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:') return LOOPBACK.has(url.hostname) ? null : `${uri} is not https`;
  if (NOT_APP_SCHEMES.has(url.protocol)) return `${uri} has a scheme that is not allowed`;
  if (url.host === '' && !url.pathname.startsWith('/'))
    return `${uri} has neither an authority nor a path, as an app's callback has`;
  return null;
}

/**
 * Where a redirect URI sends the browser, as the consent page names it: the host (and port) of
 * an http(s) URI; for an app's private-use scheme, the scheme with its authority
 * (`cursor://anysphere.cursor-mcp`) or the scheme alone (`com.example.app:`), so that it never
 * reads as a website.
 */
export function redirectTarget(uri: string): { target: string; app: boolean } {
  const url = new URL(uri);
  if (url.protocol === 'https:' || url.protocol === 'http:')
    return { target: url.host, app: false };
  return { target: url.host === '' ? url.protocol : `${url.protocol}//${url.host}`, app: true };
}

export function redirectUriMatches(requested: string, registered: string): boolean {
  if (requested === registered) return true;
  let a: URL;
  let b: URL;
  try {
    a = new URL(requested);
    b = new URL(registered);
  } catch {
    return false;
  }
  if (a.protocol !== 'http:' || b.protocol !== 'http:') return false;
  if (!LOOPBACK.has(a.hostname) || a.hostname !== b.hostname) return false;
  return a.pathname === b.pathname && a.search === b.search && a.hash === b.hash;
}

/** The registered redirect URI `requested` matches, or null. */
export function matchRedirectUri(requested: string, registered: readonly string[]): string | null {
  return registered.find((r) => redirectUriMatches(requested, r)) ?? null;
}
