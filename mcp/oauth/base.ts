/**
 * The one base URL every OAuth document and the MCP endpoint are named from: `EXHALE_PUBLIC_URL`
 * when set (without a trailing slash, so the issuer is the same string in the metadata, in
 * `authorization_servers` and in every `iss`); otherwise the request's own origin, where
 * `X-Forwarded-Proto` and `X-Forwarded-Host` count only with `trustProxy` (a reverse proxy that
 * sets them; anyone else could claim any host), each its last value: the one the proxy wrote when
 * it appended to what the client sent (`forwardedValue`).
 */
export interface BaseOptions {
  publicUrl?: string | undefined;
  trustProxy?: boolean | undefined;
}

/**
 * The value a trusted proxy wrote in an `X-Forwarded-*` header: the last of its comma-separated
 * list. A proxy that appends (Cloudflare, or any that keeps what the client sent) puts its own
 * last; one that replaces (Caddy, Tailscale) leaves only its own. The first values are the
 * client's to choose. Undefined for an absent or empty header.
 */
export function forwardedValue(header: string | null): string | undefined {
  const last = header?.split(',').at(-1)?.trim();
  return last === '' ? undefined : last;
}

export function baseUrlOf(request: Request, options: BaseOptions): string {
  if (options.publicUrl) return options.publicUrl.replace(/\/+$/, '');
  const url = new URL(request.url);
  if (options.trustProxy) {
    const proto = forwardedValue(request.headers.get('x-forwarded-proto'));
    const host = forwardedValue(request.headers.get('x-forwarded-host'));
    const scheme = proto === 'https' || proto === 'http' ? proto : url.protocol.slice(0, -1);
    if (host && /^[a-z0-9.-]+(:\d+)?$|^\[[0-9a-f:]+\](:\d+)?$/i.test(host))
      return `${scheme}://${host}`;
    return `${scheme}://${url.host}`;
  }
  return url.origin;
}

/** The protected resource (RFC 8707 / RFC 9728): the MCP endpoint's URL. */
export function resourceOf(base: string): string {
  return `${base}/mcp`;
}

/** The path part of the base (`/exhale` for https://example.com/exhale), '' at the root. */
export function basePath(base: string): string {
  return new URL(base).pathname.replace(/\/+$/, '');
}

/** RFC 9728 §3.1: the metadata URL of a resource, the well-known segment before its path. */
export function resourceMetadataUrl(base: string): string {
  const url = new URL(resourceOf(base));
  return `${url.origin}/.well-known/oauth-protected-resource${url.pathname}`;
}
