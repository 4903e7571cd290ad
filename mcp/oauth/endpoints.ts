import {
  authenticateClient,
  documentClient,
  exchangeCode,
  highestScope,
  isDocumentClientId,
  isOAuthError,
  OAuthError,
  type OAuthClient,
  refreshTokens,
  registerClient,
  reserveRegistration,
  revokeToken,
  storedClient,
} from '../../core/index.ts';
import { OAUTH_CORS } from '../cors.ts';
import type { OAuthDeps } from './deps.ts';

export function json(body: unknown, status = 200, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json',
      'cache-control': 'no-store',
      pragma: 'no-cache',
      ...OAUTH_CORS,
      ...extra,
    },
  });
}

/** An OAuth error in its wire shape (RFC 6749 §5.2). */
export function oauthErrorResponse(error: OAuthError): Response {
  return json(
    { error: error.error, error_description: error.description },
    error.status,
    error.status === 401 ? { 'www-authenticate': 'Basic realm="exhale"' } : {},
  );
}

/** Runs an endpoint, answering an OAuthError in OAuth's shape (anything else is the edge's 500). */
export async function answering(work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (error) {
    if (isOAuthError(error)) return oauthErrorResponse(error);
    throw error;
  }
}

/**
 * A form-encoded body as strings; a parameter given twice is an error, and one sent without a
 * value is as if omitted (RFC 6749 §3.2: `client_secret=` or `redirect_uri=` is no secret or URI).
 */
export async function formOf(request: Request): Promise<Record<string, string>> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.toLowerCase().startsWith('application/x-www-form-urlencoded'))
    throw new OAuthError('invalid_request', 'the body must be application/x-www-form-urlencoded');
  const params = new URLSearchParams(await request.text());
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [k, v] of params) {
    if (seen.has(k)) throw new OAuthError('invalid_request', `${k} is given more than once`);
    seen.add(k);
    if (v !== '') out[k] = v;
  }
  return out;
}

async function clientById(deps: OAuthDeps, clientId: string): Promise<OAuthClient> {
  if (isDocumentClientId(clientId))
    return documentClient(deps.core.db, clientId, deps.core.clock(), deps.documentFetch);
  const client = await storedClient(deps.core.db, clientId);
  if (!client || client.kind !== 'registered')
    throw new OAuthError('invalid_client', 'unknown client_id');
  return client;
}

/**
 * One half of Basic credentials, percent-decoded (RFC 6749 §2.3.1 has clients form-encode both);
 * a malformed escape (`a%zz`) is a client that failed to authenticate, never a server fault.
 */
function basicPart(encoded: string): string {
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw new OAuthError('invalid_client', 'malformed Basic credentials');
  }
}

/** The client of a token or revocation request, authenticated as it registered. */
async function requestClient(
  deps: OAuthDeps,
  request: Request,
  form: Record<string, string>,
): Promise<OAuthClient> {
  const header = request.headers.get('authorization');
  const basic = header ? /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (header && !basic) throw new OAuthError('invalid_client', 'unsupported client authentication');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError('invalid_client', 'malformed Basic credentials');
    const id = basicPart(decoded.slice(0, colon));
    const secret = basicPart(decoded.slice(colon + 1));
    if (form.client_id !== undefined && form.client_id !== id)
      throw new OAuthError('invalid_request', 'client_id differs from the Basic credentials');
    if (form.client_secret !== undefined)
      throw new OAuthError('invalid_request', 'use one client authentication method');
    const client = await clientById(deps, id);
    authenticateClient(client, { method: 'basic', secret });
    return client;
  }
  if (!form.client_id) throw new OAuthError('invalid_client', 'client_id is missing');
  const client = await clientById(deps, form.client_id);
  authenticateClient(
    client,
    form.client_secret === undefined
      ? { method: 'none', secret: null }
      : { method: 'post', secret: form.client_secret },
  );
  return client;
}

/** POST /oauth/token: authorization_code and refresh_token grants. */
export function tokenEndpoint(deps: OAuthDeps, request: Request): Promise<Response> {
  return answering(async () => {
    const form = await formOf(request);
    const client = await requestClient(deps, request, form);
    const now = deps.core.clock();
    if (form.grant_type === 'authorization_code') {
      if (!form.code) throw new OAuthError('invalid_request', 'code is missing');
      const tokens = await exchangeCode(
        deps.core.db,
        {
          code: form.code,
          clientId: client.clientId,
          redirectUri: form.redirect_uri ?? null,
          codeVerifier: form.code_verifier ?? null,
          resource: form.resource?.replace(/\/$/, '') ?? null,
        },
        now,
      );
      return json(tokens);
    }
    if (form.grant_type === 'refresh_token') {
      if (!form.refresh_token) throw new OAuthError('invalid_request', 'refresh_token is missing');
      // As at the authorization endpoint, unknown words are ignored: none known is none named.
      const scope = highestScope(form.scope);
      const tokens = await refreshTokens(
        deps.core.db,
        {
          refreshToken: form.refresh_token,
          clientId: client.clientId,
          resource: form.resource?.replace(/\/$/, '') ?? null,
          scope,
        },
        now,
      );
      return json(tokens);
    }
    throw new OAuthError(
      'unsupported_grant_type',
      'grant_type must be authorization_code or refresh_token',
    );
  });
}

/** POST /oauth/revoke (RFC 7009): 200 whether or not the token existed. */
export function revokeEndpoint(deps: OAuthDeps, request: Request): Promise<Response> {
  return answering(async () => {
    const form = await formOf(request);
    const client = await requestClient(deps, request, form);
    if (!form.token) throw new OAuthError('invalid_request', 'token is missing');
    await revokeToken(deps.core.db, form.token, client.clientId, deps.core.clock());
    return new Response(null, {
      status: 200,
      headers: { 'cache-control': 'no-store', ...OAUTH_CORS },
    });
  });
}

/**
 * POST /oauth/register (RFC 7591): 201 with the client's id (and secret, unless public); 429 with
 * Retry-After once `address` has registered its window's share (`reserveRegistration`), counted
 * before the body is read so a flood of bad bodies is bounded too.
 */
export function registerEndpoint(
  deps: OAuthDeps,
  request: Request,
  address: string,
): Promise<Response> {
  return answering(async () => {
    const now = deps.core.clock();
    const limit = await reserveRegistration(deps.core.db, address, now, deps.registrationLimits);
    if (!limit.allowed)
      return json(
        {
          error: 'too_many_requests',
          error_description: `too many clients registered from this address; try again in ${limit.retryAfterSeconds} s`,
        },
        429,
        { 'retry-after': String(limit.retryAfterSeconds) },
      );
    if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/json'))
      throw new OAuthError('invalid_client_metadata', 'the body must be application/json');
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      throw new OAuthError('invalid_client_metadata', 'the body is not JSON');
    }
    return json(await registerClient(deps.core.db, body, now), 201);
  });
}
