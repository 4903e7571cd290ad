/**
 * The one base URL every OAuth document and the MCP endpoint are named from: `EXHALE_PUBLIC_URL`
 * when set (without a trailing slash, so the issuer is the same string in the metadata, in
 * `authorization_servers` and in every `iss`); otherwise the request's own origin, where
 * `X-Forwarded-Proto` and `X-Forwarded-Host` count only with `trustProxy` (a reverse proxy that
 * sets them; anyone else could claim any host).
 */
export interface BaseOptions {
  publicUrl?: string | undefined;
  trustProxy?: boolean | undefined;
}

export function baseUrlOf(request: Request, options: BaseOptions): string {
  if (options.publicUrl) return options.publicUrl.replace(/\/+$/, '');
  const url = new URL(request.url);
  if (options.trustProxy) {
    const proto = request.headers.get('x-forwarded-proto')?.split(',')[0]?.trim();
    const host = request.headers.get('x-forwarded-host')?.split(',')[0]?.trim();
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
