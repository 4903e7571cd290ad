import { createHash, timingSafeEqual } from 'node:crypto';

import type { Knex } from 'knex';

import { type Actor, type Scope, SCOPES } from '../../kernel/actor.ts';
import type { Database } from '../../store/connection.ts';
import { agentActor, recordUse } from '../authenticate.ts';
import { purgeAttempts } from './attempts.ts';
import { OAuthError } from './errors.ts';
import { scopeString } from './scopes.ts';
import { hashSecret, isSecretOf, newSecret } from './secrets.ts';

/** Lifetimes: codes 10 minutes, access tokens 1 hour, refresh tokens 30 days from last use. */
export const CODE_TTL_MS = 10 * 60_000;
export const ACCESS_TTL_MS = 60 * 60_000;
export const REFRESH_TTL_MS = 30 * 24 * 60 * 60_000;

export interface CodeRequest {
  grantId: string;
  clientId: string;
  /** The redirect URI the authorization request named, '' when it named none. */
  redirectUri: string;
  /** Where the code is sent: the named URI, or the client's only one when none was named. */
  sentTo: string;
  codeChallenge: string;
  resource: string;
  scope: Scope;
}

/** A new authorization code for a grant, bound to client, redirect URI, challenge and resource. */
export async function issueAuthorizationCode(
  db: Database,
  request: CodeRequest,
  now: Date,
): Promise<string> {
  const raw = newSecret('code');
  await db.knex('oauth_codes').insert({
    hash: hashSecret(raw),
    grant_id: request.grantId,
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    sent_to: request.sentTo,
    code_challenge: request.codeChallenge,
    resource: request.resource,
    scope: request.scope,
    expires_at: new Date(now.getTime() + CODE_TTL_MS).toISOString(),
    used_at: null,
  });
  return raw;
}

/** What the token endpoint answers (RFC 6749 §5.1). */
export interface TokenSet {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

function scopeOf(value: string): Scope {
  const found = SCOPES.find((s) => s === value);
  if (!found) throw new OAuthError('invalid_grant', 'the grant has an unknown scope');
  return found;
}

/**
 * A new access and refresh token of a grant. The refresh token carries `scope` (what the grant's
 * refresh tokens may ask for); the access token `accessScope` when a refresh asked for less (RFC
 * 6749 §6: only the access token is narrowed), and the answer names the access token's scope.
 */
async function mint(
  trx: Knex.Transaction,
  grant: { grantId: string; clientId: string; scope: Scope; resource: string },
  now: Date,
  accessScope: Scope = grant.scope,
): Promise<TokenSet> {
  const access = newSecret('access');
  const refresh = newSecret('refresh');
  const common = {
    grant_id: grant.grantId,
    client_id: grant.clientId,
    resource: grant.resource,
    created_at: now.toISOString(),
    used_at: null,
    revoked_at: null,
  };
  await trx('oauth_tokens').insert([
    {
      ...common,
      hash: hashSecret(access),
      kind: 'access',
      scope: accessScope,
      expires_at: new Date(now.getTime() + ACCESS_TTL_MS).toISOString(),
    },
    {
      ...common,
      hash: hashSecret(refresh),
      kind: 'refresh',
      scope: grant.scope,
      expires_at: new Date(now.getTime() + REFRESH_TTL_MS).toISOString(),
    },
  ]);
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: Math.floor(ACCESS_TTL_MS / 1000),
    refresh_token: refresh,
    scope: scopeString(accessScope),
  };
}

/** Revokes every token of a grant (its family): a replayed code or a reused refresh token. */
export async function revokeFamily(
  db: Database | Knex.Transaction,
  grantId: string,
  now: Date,
): Promise<void> {
  const k = 'knex' in db ? db.knex : db;
  await k('oauth_tokens')
    .where({ grant_id: grantId })
    .whereNull('revoked_at')
    .update({ revoked_at: now.toISOString() });
}

/** PKCE S256 (RFC 7636 §4.6): BASE64URL(SHA256(verifier)) equals the challenge, in constant time. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier, 'ascii').digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

interface GrantRow {
  id: string;
  household_id: string;
  member_id: string;
  revoked_at: string | null;
}

async function liveGrant(trx: Knex.Transaction, grantId: string): Promise<GrantRow | null> {
  const row = (await trx('oauth_grants')
    .join('members', function joinMember() {
      this.on('members.id', '=', 'oauth_grants.member_id').andOn(
        'members.household_id',
        '=',
        'oauth_grants.household_id',
      );
    })
    .where('oauth_grants.id', grantId)
    .first(
      'oauth_grants.id',
      'oauth_grants.household_id',
      'oauth_grants.member_id',
      'oauth_grants.revoked_at',
    )) as GrantRow | undefined;
  return row && row.revoked_at === null ? row : null;
}

interface CodeRow {
  hash: string;
  grant_id: string;
  client_id: string;
  redirect_uri: string;
  sent_to: string | null;
  code_challenge: string;
  resource: string;
  scope: string;
  expires_at: string;
  used_at: string | null;
}

/**
 * RFC 6749 §4.1.3: a token request repeats the authorization request's redirect_uri exactly when
 * that request named one; when it named none (`redirect_uri` stored as ''), the token request may
 * leave it out or name the URI the code was sent to.
 */
function redirectMatches(row: CodeRow, requested: string | null): boolean {
  if (row.redirect_uri !== '') return requested === row.redirect_uri;
  return requested === null || (row.sent_to !== null && requested === row.sent_to);
}

/**
 * The authorization_code grant: the code is redeemed once (a conditional update, so of two
 * requests at once exactly one wins, on SQLite and PostgreSQL); a code presented again is a
 * replay and revokes every token issued from it (RFC 6749 §4.1.2). Client, redirect URI,
 * resource and PKCE verifier must be the ones the code was issued for.
 */
export async function exchangeCode(
  db: Database,
  request: {
    code: string;
    clientId: string;
    redirectUri: string | null;
    codeVerifier: string | null;
    resource: string | null;
  },
  now: Date,
): Promise<TokenSet> {
  if (!isSecretOf('code', request.code))
    throw new OAuthError('invalid_grant', 'the authorization code is unknown');
  const hash = hashSecret(request.code);
  let replayedGrant: string | null = null;
  const result = await db.knex.transaction(async (trx) => {
    const row = (await trx('oauth_codes').where({ hash }).first()) as CodeRow | undefined;
    if (!row || row.client_id !== request.clientId)
      throw new OAuthError('invalid_grant', 'the authorization code is unknown');
    if (row.used_at !== null) {
      replayedGrant = row.grant_id;
      return null;
    }
    if (row.expires_at <= now.toISOString())
      throw new OAuthError('invalid_grant', 'the authorization code has expired');
    if (!redirectMatches(row, request.redirectUri))
      throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request');
    if (request.resource === null)
      throw new OAuthError('invalid_target', 'resource is required (RFC 8707)');
    if (request.resource !== row.resource)
      throw new OAuthError('invalid_target', 'resource differs from the authorization request');
    if (request.codeVerifier === null || !pkceMatches(request.codeVerifier, row.code_challenge))
      throw new OAuthError('invalid_grant', 'the code_verifier does not match the code_challenge');
    const claimed = await trx('oauth_codes')
      .where({ hash })
      .whereNull('used_at')
      .update({ used_at: now.toISOString() });
    if (Number(claimed) !== 1) {
      replayedGrant = row.grant_id;
      return null;
    }
    const grant = await liveGrant(trx, row.grant_id);
    if (!grant) throw new OAuthError('invalid_grant', 'the grant was disconnected');
    return mint(
      trx,
      {
        grantId: row.grant_id,
        clientId: row.client_id,
        scope: scopeOf(row.scope),
        resource: row.resource,
      },
      now,
    );
  });
  if (result) return result;
  if (replayedGrant !== null) await revokeFamily(db, replayedGrant, now);
  throw new OAuthError('invalid_grant', 'the authorization code was already used');
}

interface TokenRow {
  hash: string;
  kind: string;
  grant_id: string;
  client_id: string;
  scope: string;
  resource: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
}

/**
 * How long after its rotation a refresh token may be used again without counting as reuse. A
 * client that refreshes from parallel requests sends the same refresh token twice at once; without
 * a leeway the loser of that race revoked the winner's fresh tokens (reuse detection) and the app
 * was disconnected until the person typed a new /connect code. As Okta's grace period and Auth0's
 * reuse interval: within the leeway a second use gets a fresh pair of the same grant and revokes
 * nothing; after it, a use is reuse and revokes the family. Short, so that a stolen copy replayed
 * later is still caught; long enough for requests already in flight when the first one rotated.
 */
export const REFRESH_REUSE_LEEWAY_MS = 30_000;

async function refreshRow(trx: Knex.Transaction, hash: string): Promise<TokenRow | undefined> {
  return (await trx('oauth_tokens').where({ hash, kind: 'refresh' }).first()) as
    TokenRow | undefined;
}

/** What a refresh may ask of `row`: the scope of the new access token, else why not. */
function askable(
  row: TokenRow,
  request: { resource: string | null; scope: Scope | null },
  now: Date,
): { had: Scope; access: Scope } {
  if (row.expires_at <= now.toISOString())
    throw new OAuthError('invalid_grant', 'the refresh token has expired');
  if (request.resource !== null && request.resource !== row.resource)
    throw new OAuthError('invalid_target', 'resource differs from the one the grant is for');
  const had = scopeOf(row.scope);
  if (request.scope !== null && SCOPES.indexOf(request.scope) > SCOPES.indexOf(had))
    throw new OAuthError('invalid_scope', 'a refresh may lower the scope, never raise it');
  return { had, access: request.scope ?? had };
}

/** The new pair that replaces a refresh token, while its grant is connected. */
async function successor(
  trx: Knex.Transaction,
  row: TokenRow,
  had: Scope,
  access: Scope,
  now: Date,
): Promise<TokenSet> {
  if (!(await liveGrant(trx, row.grant_id)))
    throw new OAuthError('invalid_grant', 'the grant was disconnected');
  const grant = { grantId: row.grant_id, clientId: row.client_id, resource: row.resource };
  return mint(trx, { ...grant, scope: had }, now, access);
}

/**
 * The refresh_token grant, rotating: the refresh token is used once (a conditional update) and
 * replaced. Used again within `REFRESH_REUSE_LEEWAY_MS` of its rotation (parallel refreshes of
 * one client, in one process or several), it gives another fresh pair of the same grant and
 * revokes nothing; used again later (a stolen copy), it revokes its whole family (OAuth 2.1
 * §4.3.1). A `scope` lowers the new access token's scope, never raises it; the new refresh token
 * keeps the old one's (RFC 6749 §6), so a later refresh may ask for the grant's scope again.
 */
export async function refreshTokens(
  db: Database,
  request: {
    refreshToken: string;
    clientId: string;
    resource: string | null;
    scope: Scope | null;
  },
  now: Date,
): Promise<TokenSet> {
  if (!isSecretOf('refresh', request.refreshToken))
    throw new OAuthError('invalid_grant', 'the refresh token is unknown');
  const hash = hashSecret(request.refreshToken);
  let reusedGrant: string | null = null;
  const result = await db.knex.transaction(async (trx) => {
    const row = await refreshRow(trx, hash);
    if (!row || row.client_id !== request.clientId)
      throw new OAuthError('invalid_grant', 'the refresh token is unknown');
    if (row.revoked_at !== null)
      throw new OAuthError('invalid_grant', 'the refresh token was revoked');
    let usedAt = row.used_at;
    if (usedAt === null) {
      const { had, access } = askable(row, request, now);
      const claimed = await trx('oauth_tokens')
        .where({ hash })
        .whereNull('used_at')
        .whereNull('revoked_at')
        .update({ used_at: now.toISOString() });
      if (Number(claimed) === 1) return successor(trx, row, had, access, now);
      // Another request rotated (or revoked) it since it was read: read what it committed (on
      // PostgreSQL the update waited for that commit, and each statement sees what is committed).
      const after = await refreshRow(trx, hash);
      if (!after) throw new OAuthError('invalid_grant', 'the refresh token is unknown');
      if (after.revoked_at !== null || after.used_at === null)
        throw new OAuthError('invalid_grant', 'the refresh token was revoked');
      usedAt = after.used_at;
    }
    if (now.getTime() - Date.parse(usedAt) >= REFRESH_REUSE_LEEWAY_MS) {
      reusedGrant = row.grant_id;
      return null;
    }
    // Within the leeway: a fresh pair of the same grant; the rotated token stays as it is.
    const { had, access } = askable(row, request, now);
    return successor(trx, row, had, access, now);
  });
  if (result) return result;
  if (reusedGrant !== null) await revokeFamily(db, reusedGrant, now);
  throw new OAuthError('invalid_grant', 'the refresh token was already used');
}

/**
 * RFC 7009 revocation by the client that holds the token: an access token ends alone, a refresh
 * token ends its whole grant's tokens. Unknown tokens, or another client's, change nothing (the
 * endpoint answers 200 either way, so it tells nobody which tokens exist).
 */
export async function revokeToken(
  db: Database,
  raw: string,
  clientId: string,
  now: Date,
): Promise<void> {
  if (!isSecretOf('access', raw) && !isSecretOf('refresh', raw)) return;
  const row = (await db
    .knex('oauth_tokens')
    .where({ hash: hashSecret(raw) })
    .first()) as TokenRow | undefined;
  if (!row || row.client_id !== clientId) return;
  if (row.kind === 'refresh') await revokeFamily(db, row.grant_id, now);
  else
    await db
      .knex('oauth_tokens')
      .where({ hash: row.hash })
      .whereNull('revoked_at')
      .update({ revoked_at: now.toISOString() });
}

interface AccessRow {
  grant_id: string;
  scope: string;
  household_id: string;
  member_id: string;
  client_name: string;
  role: string;
  language: string;
}

/**
 * The agent an OAuth access token stands for at `resource`, or null: unknown, expired, revoked,
 * issued for another resource (RFC 8707 audience), its grant disconnected, or its member gone.
 * Looked up on every request, so a revocation or disconnection counts from the next one, in
 * every process. The agent acts as the grant's member, named after the client, never above the
 * grant's scope; `tokenId` is the grant's id (audit and confirmations are bound to it).
 */
export async function authenticateAccessToken(
  db: Database,
  raw: string,
  resource: string,
  now: Date,
): Promise<Actor | null> {
  if (!isSecretOf('access', raw)) return null;
  const row = (await db
    .knex('oauth_tokens')
    .join('oauth_grants', 'oauth_grants.id', 'oauth_tokens.grant_id')
    .join('members', function joinMember() {
      this.on('members.id', '=', 'oauth_grants.member_id').andOn(
        'members.household_id',
        '=',
        'oauth_grants.household_id',
      );
    })
    .where({ 'oauth_tokens.hash': hashSecret(raw), 'oauth_tokens.kind': 'access' })
    .where('oauth_tokens.resource', resource)
    .where('oauth_tokens.expires_at', '>', now.toISOString())
    .whereNull('oauth_tokens.revoked_at')
    .whereNull('oauth_grants.revoked_at')
    .first(
      'oauth_tokens.grant_id',
      'oauth_tokens.scope',
      'oauth_grants.household_id',
      'oauth_grants.member_id',
      'oauth_grants.client_name',
      'members.role',
      'members.language',
    )) as AccessRow | undefined;
  if (!row) return null;
  const scope = SCOPES.find((s) => s === row.scope);
  if (!scope) return null;
  await recordUse(db, { table: 'oauth_grant_uses', key: 'grant_id' }, row.grant_id, now);
  return agentActor(row, scope, { name: row.client_name, tokenId: row.grant_id });
}

/**
 * The cleanup job's work: expired codes, tokens and connect-code attempt windows, and clients nobody connected within a week
 * (registered or cached documents) that no grant refers to.
 */
export async function purgeOAuth(db: Database, now: Date): Promise<void> {
  const iso = now.toISOString();
  await db.knex('oauth_codes').where('expires_at', '<', iso).delete();
  await db.knex('oauth_tokens').where('expires_at', '<', iso).delete();
  await purgeAttempts(db, now);
  const weekAgo = new Date(now.getTime() - 7 * 24 * 60 * 60_000).toISOString();
  await db
    .knex('oauth_clients')
    .whereNull('last_connected_at')
    .where('created_at', '<', weekAgo)
    .whereNotExists(function grantsOf() {
      this.select(db.knex.raw('1'))
        .from('oauth_grants')
        .whereRaw('oauth_grants.client_id = oauth_clients.client_id');
    })
    .delete();
}
