import { getConnInfo } from '@hono/node-server/conninfo';
import { type Context, Hono } from 'hono';

import type { EdgeEnv, RouteGroup } from '../../bot/http/app.ts';
import { type Locale, OpError } from '../../core/index.ts';
import { answerConsent, showConsent } from './authorize.ts';
import { basePath, baseUrlOf } from './base.ts';
import type { OAuthDeps } from './deps.ts';
import { CORS, json, registerEndpoint, revokeEndpoint, tokenEndpoint } from './endpoints.ts';
import { authorizationServerMetadata, OAUTH_PATHS, protectedResourceMetadata } from './metadata.ts';

const PRM = '/.well-known/oauth-protected-resource';
const ASM = '/.well-known/oauth-authorization-server';

/** English or Spanish, whichever the browser prefers first (Accept-Language, by q). */
export function pageLocale(header: string | null): Locale {
  const tags = (header ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...rest] = part.trim().split(';');
      const q = rest.map((r) => /^\s*q=([\d.]+)/.exec(r)?.[1]).find((v) => v !== undefined);
      return { base: tag.toLowerCase().split('-')[0], q: q === undefined ? 1 : Number(q) };
    })
    .filter((x) => x.q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { base } of tags) if (base === 'en' || base === 'es') return base;
  return 'en';
}

function addressOf(c: Context<EdgeEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown'; // served in process (tests): no socket
  }
}

function metadataResponse(body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'public, max-age=300',
      ...CORS,
    },
  });
}

/**
 * The authorization server's route group, mounted at `/`: the metadata documents (RFC 9728
 * protected resource metadata at the root and path-aware URL, RFC 8414 authorization server
 * metadata, both also under the public URL's path when it has one), and the endpoints.
 */
export function oauthRoutes(deps: OAuthDeps): RouteGroup {
  const group = new Hono<EdgeEnv>();
  const base = (c: Context<EdgeEnv>): string => baseUrlOf(c.req.raw, deps);
  const prefix = deps.publicUrl ? basePath(deps.publicUrl.replace(/\/+$/, '')) : '';
  const prmPaths = [PRM, `${PRM}/mcp`, ...(prefix ? [`${PRM}${prefix}/mcp`] : [])];
  const asmPaths = [ASM, ...(prefix ? [`${ASM}${prefix}`] : [])];
  for (const path of prmPaths)
    group.get(path, (c) => metadataResponse(protectedResourceMetadata(base(c))));
  for (const path of asmPaths)
    group.get(path, (c) => metadataResponse(authorizationServerMetadata(base(c))));
  for (const path of [
    ...prmPaths,
    ...asmPaths,
    OAUTH_PATHS.token,
    OAUTH_PATHS.register,
    OAUTH_PATHS.revoke,
  ])
    group.options(path, () => new Response(null, { status: 204, headers: CORS }));

  group.get(OAUTH_PATHS.authorize, (c) =>
    showConsent(deps, c.req.raw, base(c), pageLocale(c.req.header('accept-language') ?? null)),
  );
  group.post(OAUTH_PATHS.authorize, async (c) => {
    const type = c.req.header('content-type') ?? '';
    if (!type.startsWith('application/x-www-form-urlencoded')) throw new OpError('invalid_input');
    const form = Object.fromEntries(new URLSearchParams(await c.req.text()));
    return answerConsent(
      deps,
      c.req.raw,
      base(c),
      pageLocale(c.req.header('accept-language') ?? null),
      form,
      addressOf(c, deps.trustProxy === true),
    );
  });
  group.post(OAUTH_PATHS.token, (c) => tokenEndpoint(deps, c.req.raw));
  group.post(OAUTH_PATHS.revoke, (c) => revokeEndpoint(deps, c.req.raw));
  group.post(OAUTH_PATHS.register, (c) => registerEndpoint(deps, c.req.raw));
  group.all(OAUTH_PATHS.token, () =>
    json({ error: 'invalid_request', error_description: 'use POST' }, 405),
  );
  return group;
}
