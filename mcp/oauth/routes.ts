import { isIP } from 'node:net';

import { getConnInfo } from '@hono/node-server/conninfo';
import { type Context, Hono } from 'hono';

import type { EdgeEnv, RouteGroup } from '../../bot/http/app.ts';
import { type Locale, OpError } from '../../core/index.ts';
import { answerConsent, showConsent } from './authorize.ts';
import { basePath, baseUrlOf, forwardedValue } from './base.ts';
import type { OAuthDeps } from './deps.ts';
import { OAUTH_CORS } from '../cors.ts';
import { json, registerEndpoint, revokeEndpoint, tokenEndpoint } from './endpoints.ts';
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

function socketAddress(c: Context<EdgeEnv>): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined; // served in process (tests): no socket
  }
}

function isLoopback(address: string | undefined): boolean {
  return (
    address !== undefined &&
    (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'))
  );
}

/** An address as a proxy may write it in X-Forwarded-For: `[2001:db8::1]:443` or `1.2.3.4:80` too. */
function bareAddress(value: string): string | undefined {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value)?.[1];
  const candidate = bracketed ?? value.replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, '$1');
  return isIP(candidate) === 0 ? undefined : candidate;
}

/**
 * The address the wrong-code and registration limits count a request under. Behind a trusted proxy
 * (`trustProxy`), the one the proxy appended to X-Forwarded-For: the last entry (the first ones
 * are whatever the client sent, so a client could choose a new address for each try); else the
 * socket's. Without `trustProxy`, a request that comes with X-Forwarded-For from a loopback peer
 * is almost surely through a proxy on this machine (a tunnel, Caddy), where every person has the
 * proxy's address and shares one budget: `warn` is called (once a process, by the caller).
 */
function addressOf(c: Context<EdgeEnv>, trustProxy: boolean, warn: () => void): string {
  const forwarded = forwardedValue(c.req.header('x-forwarded-for') ?? null);
  const socket = socketAddress(c);
  if (trustProxy) {
    const appended = forwarded === undefined ? undefined : bareAddress(forwarded);
    if (appended) return appended;
  } else if (forwarded !== undefined && isLoopback(socket)) warn();
  return socket ?? 'unknown';
}

/** The line a process logs once when a proxy seems to be in front while EXHALE_TRUST_PROXY is off. */
const UNTRUSTED_PROXY_LINE =
  "oauth: requests come with X-Forwarded-For from this machine (a tunnel or reverse proxy?) but EXHALE_TRUST_PROXY is off, so everyone counts as the proxy's address for the wrong connect-code limit; set EXHALE_TRUST_PROXY=on when every request comes through that one proxy (docs/remote-agents.md)";

function metadataResponse(body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'public, max-age=300',
      ...OAUTH_CORS,
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
    group.options(path, () => new Response(null, { status: 204, headers: OAUTH_CORS }));

  let warned = false;
  const addressFor = (c: Context<EdgeEnv>): string =>
    addressOf(c, deps.trustProxy === true, () => {
      if (warned) return;
      warned = true;
      c.var.log(UNTRUSTED_PROXY_LINE);
    });
  group.get(OAUTH_PATHS.authorize, (c) => {
    // The page a person opens first: where a proxy without EXHALE_TRUST_PROXY is noticed.
    addressFor(c);
    return showConsent(
      deps,
      c.req.raw,
      base(c),
      pageLocale(c.req.header('accept-language') ?? null),
    );
  });
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
      addressFor(c),
    );
  });
  group.post(OAUTH_PATHS.token, (c) => tokenEndpoint(deps, c.req.raw));
  group.post(OAUTH_PATHS.revoke, (c) => revokeEndpoint(deps, c.req.raw));
  group.post(OAUTH_PATHS.register, (c) => registerEndpoint(deps, c.req.raw, addressFor(c)));
  group.all(OAUTH_PATHS.token, () =>
    json({ error: 'invalid_request', error_description: 'use POST' }, 405),
  );
  return group;
}
