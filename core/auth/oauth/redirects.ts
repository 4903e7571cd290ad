/**
 * Redirect URIs (OAuth 2.1 §2.3.1, RFC 8252): registered values are https, http on a loopback
 * address, or a private-use scheme of a native app (reverse domain, `com.example.app:/cb`); never
 * with a fragment or user info. A requested URI matches a registered one exactly, except that on
 * a loopback host (`127.0.0.1`, `[::1]`, `localhost`) the port may differ (RFC 8252 §7.3).
 */
const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

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
  // A private-use scheme (RFC 8252 §7.1) names a domain the app controls, so it has a dot.
  if (/^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/i.test(url.protocol)) return null;
  return `${uri} has a scheme that is not allowed`;
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
