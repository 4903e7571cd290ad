import { z } from 'zod';

import {
  type Actor,
  cappedScope,
  clientLogo,
  DEFAULT_SCOPE,
  documentClient,
  highestScope,
  isDocumentClientId,
  isOAuthError,
  issueAuthorizationCode,
  type Locale,
  markConnected,
  matchRedirectUri,
  redirectTarget,
  refundConnectAttempt,
  reserveConnectAttempt,
  type OAuthClient,
  type Scope,
  scopesUpTo,
  storedClient,
} from '../../core/index.ts';
import { resourceOf } from './base.ts';
import { consentPage, errorPage, type ConsentView } from './consent.ts';
import type { OAuthDeps } from './deps.ts';
import { pageHeaders } from './html.ts';

/** What `connect_app` returns that the code is bound to. */
const Granted = z.object({ id: z.string() });

/** The authorization request's parameters, from the query (GET) or the consent form (POST). */
const PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'code_challenge',
  'code_challenge_method',
  'resource',
  'scope',
] as const;
type Params = Partial<Record<(typeof PARAMS)[number], string>>;

/** The request's parameters; one sent without a value is as if omitted (RFC 6749 §3.1). */
export function paramsOf(source: URLSearchParams | Record<string, unknown>): Params {
  const out: Params = {};
  for (const name of PARAMS) {
    const value = source instanceof URLSearchParams ? source.get(name) : source[name];
    if (typeof value === 'string' && value !== '') out[name] = value;
  }
  return out;
}

/** A checked authorization request: ready for consent, or to be answered with an error. */
type Checked =
  | { kind: 'page'; reason: 'client' | 'redirect'; detail: string }
  | { kind: 'redirect'; to: string; error: string; description: string; state: string | undefined }
  | {
      kind: 'ok';
      client: OAuthClient;
      redirectUri: string;
      /** Whether the request named it (it may not when the client has one): the token request must match. */
      redirectNamed: boolean;
      state: string | undefined;
      challenge: string;
      resource: string;
      scope: Scope;
    };

async function findClient(deps: OAuthDeps, clientId: string): Promise<OAuthClient | string> {
  try {
    if (isDocumentClientId(clientId))
      return await documentClient(deps.core.db, clientId, deps.core.clock(), deps.documentFetch);
    const stored = await storedClient(deps.core.db, clientId);
    return stored?.kind === 'registered' ? stored : 'unknown client_id';
  } catch (error) {
    if (isOAuthError(error)) return error.description;
    throw error;
  }
}

/**
 * RFC 6749 §4.1.2.1 and RFC 9207: the client and redirect URI are checked first, and an unknown
 * one gets a page, never a redirect (an open redirector otherwise); every later problem goes back
 * to the client as `error` with `state` and `iss`.
 */
export async function checkRequest(deps: OAuthDeps, base: string, p: Params): Promise<Checked> {
  if (!p.client_id) return { kind: 'page', reason: 'client', detail: 'client_id is missing' };
  const client = await findClient(deps, p.client_id);
  if (typeof client === 'string') return { kind: 'page', reason: 'client', detail: client };
  const only = client.redirectUris.length === 1 ? client.redirectUris[0] : undefined;
  const requested = p.redirect_uri ?? only;
  if (!requested || !matchRedirectUri(requested, client.redirectUris))
    return { kind: 'page', reason: 'redirect', detail: 'redirect_uri is not registered' };
  const fail = (error: string, description: string): Checked => ({
    kind: 'redirect',
    to: requested,
    error,
    description,
    state: p.state,
  });
  if (p.response_type !== 'code')
    return fail('unsupported_response_type', 'response_type must be code');
  if (!p.code_challenge || !/^[A-Za-z0-9_-]{43}$/.test(p.code_challenge))
    return fail('invalid_request', 'code_challenge (PKCE S256) is required');
  if (p.code_challenge_method !== 'S256')
    return fail('invalid_request', 'code_challenge_method must be S256');
  if (!p.resource) return fail('invalid_target', 'resource is required (RFC 8707)');
  if (p.resource.replace(/\/$/, '') !== resourceOf(base))
    return fail('invalid_target', `resource must be ${resourceOf(base)}`);
  // Unknown words (openid, profile, offline_access…) are ignored; none known is none named. A
  // client that registered a scope gets at most that.
  const asked = cappedScope(highestScope(p.scope) ?? DEFAULT_SCOPE, client.scope);
  return {
    kind: 'ok',
    client,
    redirectUri: requested,
    redirectNamed: p.redirect_uri !== undefined,
    state: p.state,
    challenge: p.code_challenge,
    resource: resourceOf(base),
    scope: asked,
  };
}

/** The redirect back to the client, always with `iss` (RFC 9207) and the `state` it sent. */
export function redirectBack(
  to: string,
  base: string,
  values: Record<string, string | undefined>,
): Response {
  const url = new URL(to);
  for (const [k, v] of Object.entries(values)) if (v !== undefined) url.searchParams.set(k, v);
  url.searchParams.set('iss', base);
  return new Response(null, {
    status: 302,
    headers: { location: url.href, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' },
  });
}

/** Where the page's form may post to, and the redirect that answers it may go (CSP `form-action`). */
function formTargets(redirectUri: string): string[] {
  const url = new URL(redirectUri);
  return url.protocol === 'https:' || url.protocol === 'http:' ? [url.origin] : [url.protocol];
}

function html(body: string, status: number, targets: string[] = []): Response {
  return new Response(body, { status, headers: pageHeaders(targets) });
}

function answerChecked(checked: Exclude<Checked, { kind: 'ok' }>, base: string, locale: Locale) {
  if (checked.kind === 'page') return html(errorPage(locale, checked.reason, checked.detail), 400);
  return redirectBack(checked.to, base, {
    error: checked.error,
    error_description: checked.description,
    state: checked.state,
  });
}

/** What the page shows; the logo comes from the client's row (fetched once a day at most). */
async function viewOf(
  deps: OAuthDeps,
  checked: Extract<Checked, { kind: 'ok' }>,
  p: Params,
): Promise<ConsentView> {
  const logo = await clientLogo(
    deps.core.db,
    checked.client,
    deps.core.clock(),
    deps.documentFetch,
  );
  return {
    logo,
    clientName: checked.client.name ?? checked.client.clientId,
    verified: checked.client.kind === 'document',
    clientId: checked.client.clientId,
    returnTo: redirectTarget(checked.redirectUri),
    asked: checked.scope,
    preselected: checked.scope === 'trusted' ? 'write' : checked.scope,
    choices: scopesUpTo(checked.scope),
    params: p,
  };
}

/** GET /oauth/authorize: the consent page (or the error). */
export async function showConsent(
  deps: OAuthDeps,
  request: Request,
  base: string,
  locale: Locale,
): Promise<Response> {
  const p = paramsOf(new URL(request.url).searchParams);
  const checked = await checkRequest(deps, base, p);
  if (checked.kind !== 'ok') return answerChecked(checked, base, locale);
  const session = deps.sessionMember ? await deps.sessionMember(request) : null;
  return html(
    consentPage(locale, await viewOf(deps, checked, p), { needsCode: session === null }),
    200,
    formTargets(checked.redirectUri),
  );
}

/**
 * POST /oauth/authorize: the person's answer. Deny goes back as `access_denied`. Allow needs the
 * member, the way the page asked for them (its `via` field): a page that showed the code field
 * takes only a connect code, and connects the code's member even when the browser also has a
 * session (a page reached from another site is shown without the SameSite=Strict session cookie,
 * which the same-site POST then carries: the person typed a code, so the code decides); a page
 * shown to a signed-in person takes only that session. A form without `via` needs a code. Wrong
 * codes are refused without saying why, and counted per client and address. The grant is made
 * through `connect_app` (audited, undoable, in the member's activity), then a code is issued.
 */
export async function answerConsent(
  deps: OAuthDeps,
  request: Request,
  base: string,
  locale: Locale,
  form: Record<string, unknown>,
  address: string,
): Promise<Response> {
  const p = paramsOf(form);
  const checked = await checkRequest(deps, base, p);
  if (checked.kind !== 'ok') return answerChecked(checked, base, locale);
  const view = await viewOf(deps, checked, p);
  const targets = formTargets(checked.redirectUri);
  if (form.decision !== 'allow')
    return redirectBack(checked.redirectUri, base, {
      error: 'access_denied',
      error_description: 'the person denied access',
      state: checked.state,
    });
  const chosen = typeof form.granted_scope === 'string' ? highestScope(form.granted_scope) : null;
  // No choice sent (a hand-made form): what the page would have started on, never more.
  const scope = chosen && view.choices.includes(chosen) ? chosen : view.preselected;
  const now = deps.core.clock();
  let member: Actor | null;
  if (form.via === 'session') {
    member = deps.sessionMember ? await deps.sessionMember(request) : null;
    // Signed out (or the session ended) since the page was shown: ask for a code instead.
    if (!member)
      return html(
        consentPage(locale, view, { needsCode: true, problem: 'signed_out' }),
        400,
        targets,
      );
  } else {
    // Reserved before the code is looked at, shared by every process on the database; counted per
    // client and address, so one person's wrong codes never lock the client out for others.
    const attempt = await reserveConnectAttempt(
      deps.core.db,
      checked.client.clientId,
      address,
      now,
    );
    if (!attempt.allowed)
      return html(
        consentPage(locale, view, { needsCode: true, problem: 'too_many' }),
        429,
        targets,
      );
    const raw = typeof form.connect_code === 'string' ? form.connect_code : '';
    member = raw.trim() === '' ? null : await deps.redeemConnectCode(raw, now);
    if (!member)
      return html(
        consentPage(locale, view, { needsCode: true, problem: 'wrong_code' }),
        400,
        targets,
      );
    await refundConnectAttempt(deps.core.db, attempt.keys, now);
  }
  const { output } = await deps.core.invoke(
    'connect_app',
    // The activity says where the person allowed it: the consent page, not the Mini App.
    { ...member, channel: 'consent' },
    {
      client: checked.client.clientId,
      client_name: view.clientName.slice(0, 200),
      scope,
      resource: checked.resource,
    },
    { surface: 'web' },
  );
  const code = await issueAuthorizationCode(
    deps.core.db,
    {
      grantId: Granted.parse(output).id,
      clientId: checked.client.clientId,
      // RFC 6749 §4.1.3: the token request repeats redirect_uri exactly when this request named it.
      redirectUri: checked.redirectNamed ? checked.redirectUri : '',
      sentTo: checked.redirectUri,
      codeChallenge: checked.challenge,
      resource: checked.resource,
      scope,
    },
    now,
  );
  await markConnected(deps.core.db, checked.client.clientId, now);
  return redirectBack(checked.redirectUri, base, { code, state: checked.state });
}
