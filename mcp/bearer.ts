import type { Scope } from '../core/index.ts';

/** The realm every challenge names. */
const REALM = 'exhale';

/** The raw token of an `Authorization: Bearer …` header, or null when there is none. */
export function bearerToken(header: string | null): string | null {
  if (!header) return null;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match?.[1] ?? null;
}

function challenge(
  status: 401 | 403,
  params: Record<string, string>,
  body: Record<string, string>,
): Response {
  const header = [
    `realm="${REALM}"`,
    ...Object.entries(params).map(([k, v]) => `${k}="${v.replace(/["\\]/g, '')}"`),
  ].join(', ');
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      'content-type': 'application/json',
      'www-authenticate': `Bearer ${header}`,
      'cache-control': 'no-store',
    },
  });
}

/**
 * 401 with a `WWW-Authenticate: Bearer` challenge (RFC 6750, MCP authorization): every one names
 * the protected resource metadata (RFC 9728, where OAuth clients find the authorization server)
 * and the scope to ask for; with a bad token, `invalid_token`.
 */
export function unauthorized(hadToken: boolean, resourceMetadata: string, scope: string): Response {
  const description = hadToken
    ? 'The token is unknown, expired, revoked or for another server. Connect again, or create an agent token with `exhale token create`.'
    : 'Connect with OAuth (see the resource_metadata of this challenge), or send an Exhale token as "Authorization: Bearer <token>" (`exhale token create`).';
  if (!hadToken)
    return challenge(
      401,
      { resource_metadata: resourceMetadata, scope },
      { error: 'unauthorized', error_description: description },
    );
  return challenge(
    401,
    {
      error: 'invalid_token',
      error_description: description,
      resource_metadata: resourceMetadata,
      scope,
    },
    { error: 'invalid_token', error_description: description },
  );
}

/** 403 `insufficient_scope`, naming the scope the call needs and where to get a token with it. */
export function insufficientScope(needed: Scope, tool: string, resourceMetadata: string): Response {
  const description = `The tool ${tool} needs a token with the ${needed} scope.`;
  return challenge(
    403,
    {
      error: 'insufficient_scope',
      scope: needed,
      resource_metadata: resourceMetadata,
      error_description: description,
    },
    {
      error: 'insufficient_scope',
      error_description: description,
      scope: needed,
    },
  );
}
