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
 * 401 with a `WWW-Authenticate: Bearer` challenge (RFC 6750): without a token it names only the
 * realm and the scope to ask for; with a bad one, `invalid_token`.
 */
export function unauthorized(hadToken: boolean): Response {
  const description = hadToken
    ? 'The token is unknown or revoked. Create one with `exhale token create`.'
    : 'Send an Exhale token as "Authorization: Bearer <token>". Create one with `exhale token create`.';
  if (!hadToken)
    return challenge(
      401,
      { scope: 'read' },
      { error: 'unauthorized', error_description: description },
    );
  return challenge(
    401,
    { error: 'invalid_token', error_description: description },
    { error: 'invalid_token', error_description: description },
  );
}

/** 403 `insufficient_scope`, naming the scope the call needs. */
export function insufficientScope(needed: Scope, tool: string): Response {
  const description = `The tool ${tool} needs a token with the ${needed} scope.`;
  return challenge(
    403,
    { error: 'insufficient_scope', scope: needed, error_description: description },
    {
      error: 'insufficient_scope',
      error_description: description,
      scope: needed,
    },
  );
}
