import { randomBytes, timingSafeEqual } from 'node:crypto';

import { z } from 'zod';

import type { Scope } from '../../kernel/actor.ts';
import type { Database } from '../../store/connection.ts';
import { OAuthError } from './errors.ts';
import { redirectUriProblem } from './redirects.ts';
import { highestScope } from './scopes.ts';
import { hashSecret, newSecret } from './secrets.ts';

export const AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'] as const;
export type AuthMethod = (typeof AUTH_METHODS)[number];

/** A client as the authorization server knows it, registered (RFC 7591) or from its document. */
export interface OAuthClient {
  clientId: string;
  kind: 'registered' | 'document';
  /** What the client calls itself; from a document the client controls only when `kind` is document. */
  name: string | null;
  logoUri: string | null;
  redirectUris: string[];
  authMethod: AuthMethod;
  secretHash: string | null;
  /** The highest scope it registered (its `scope` metadata), which caps what it is granted; null: none named. */
  scope: Scope | null;
}

interface ClientRow {
  client_id: string;
  kind: string;
  client_name: string | null;
  logo_uri: string | null;
  redirect_uris: string;
  auth_method: string;
  secret_hash: string | null;
  metadata: string;
  created_at: string;
  cache_until: string | null;
  last_connected_at: string | null;
}

/**
 * Bounds on what a client may register (RFC 7591 leaves them to the server): every field Exhale
 * keeps is bounded, so a registration is a few kilobytes at most whatever was sent.
 */
const METADATA_LIMITS = {
  redirectUris: 20,
  uriLength: 2048,
  nameLength: 200,
  scopeLength: 200,
  typeEntries: 10,
  typeLength: 64,
} as const;
const L = METADATA_LIMITS;

const HttpsUrl = z
  .string()
  .max(L.uriLength, `at most ${L.uriLength} characters`)
  .refine((v) => {
    try {
      return new URL(v).protocol === 'https:';
    } catch {
      return false;
    }
  }, 'must be an https URL');

const Types = z
  .array(z.string().max(L.typeLength, `at most ${L.typeLength} characters`))
  .max(L.typeEntries, `at most ${L.typeEntries} entries`);

/**
 * The client metadata Exhale uses (RFC 7591 §2), and only it: any other field is ignored, neither
 * kept nor answered back (RFC 7591 §2 lets a server ignore what it does not understand).
 */
export const ClientMetadata = z.object({
  redirect_uris: z
    .array(z.string().max(L.uriLength, `at most ${L.uriLength} characters`))
    .min(1, 'at least one redirect URI is required')
    .max(L.redirectUris, `at most ${L.redirectUris} redirect URIs`),
  token_endpoint_auth_method: z.enum(AUTH_METHODS).optional(),
  grant_types: Types.optional(),
  response_types: Types.optional(),
  client_name: z.string().max(L.nameLength, `at most ${L.nameLength} characters`).optional(),
  logo_uri: HttpsUrl.optional(),
  scope: z.string().max(L.scopeLength, `at most ${L.scopeLength} characters`).optional(),
  application_type: z.enum(['web', 'native']).optional(),
});
export type ClientMetadata = z.infer<typeof ClientMetadata>;

/**
 * The metadata, checked as RFC 7591 §3.2.2 asks: redirect URIs (`invalid_redirect_uri`), grant
 * and response types, and every bound (`invalid_client_metadata`, naming the field and the bound).
 */
export function checkMetadata(input: unknown): ClientMetadata {
  const parsed = ClientMetadata.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') ?? '';
    const problem = `${where ? `${where}: ` : ''}${issue?.message ?? 'invalid'}`;
    const aboutUris = where.startsWith('redirect_uris') && issue?.code !== 'too_big';
    throw new OAuthError(aboutUris ? 'invalid_redirect_uri' : 'invalid_client_metadata', problem);
  }
  const meta = parsed.data;
  for (const uri of meta.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError('invalid_redirect_uri', problem);
  }
  const grants = meta.grant_types ?? ['authorization_code'];
  if (grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token'))
    throw new OAuthError(
      'invalid_client_metadata',
      'grant_types may hold authorization_code and refresh_token only',
    );
  if ((meta.response_types ?? ['code']).some((r) => r !== 'code'))
    throw new OAuthError('invalid_client_metadata', 'response_types may hold code only');
  return meta;
}

const StoredScope = z.object({ scope: z.string().optional() });

/**
 * A client's name as people are shown it (the consent page, the connected app in chat and in
 * `list_connected_apps`): without format characters, which could reverse or hide the words
 * around it (bidi overrides and isolates U+202A–U+202E and U+2066–U+2069, the marks U+200E,
 * U+200F and U+061C, zero-width and invisible ones; the zero-width joiner of emoji stays), control
 * characters and line breaks as spaces, runs of spaces as one; null when nothing is left.
 */
export function displayName(raw: string | null): string | null {
  if (raw === null) return null;
  const shown = raw
    .replace(/[\p{Cf}]/gu, (ch) => (ch === '\u200d' ? ch : ''))
    .replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, ' ')
    .trim();
  return shown === '' ? null : shown;
}

function fromRow(row: ClientRow): OAuthClient {
  const method = AUTH_METHODS.find((m) => m === row.auth_method) ?? 'none';
  const stored = StoredScope.safeParse(JSON.parse(row.metadata));
  return {
    clientId: row.client_id,
    kind: row.kind === 'document' ? 'document' : 'registered',
    name: displayName(row.client_name),
    logoUri: row.logo_uri,
    redirectUris: z.array(z.string()).parse(JSON.parse(row.redirect_uris)),
    authMethod: method,
    secretHash: row.secret_hash,
    scope: stored.success ? highestScope(stored.data.scope) : null,
  };
}

/**
 * Registers a client (RFC 7591): a random `client_id`, and a secret unless the client is public
 * (`token_endpoint_auth_method: none`). The secret never expires (`client_secret_expires_at: 0`);
 * a client nobody connected within a week is removed by the cleanup job.
 */
export async function registerClient(
  db: Database,
  input: unknown,
  now: Date,
): Promise<Record<string, unknown>> {
  const meta = checkMetadata(input);
  const method: AuthMethod = meta.token_endpoint_auth_method ?? 'client_secret_basic';
  const clientId = `exhale_${randomBytes(16).toString('hex')}`;
  const secret = method === 'none' ? null : newSecret('client');
  const stored = { ...meta, token_endpoint_auth_method: method };
  await db.knex('oauth_clients').insert({
    client_id: clientId,
    kind: 'registered',
    client_name: meta.client_name ?? null,
    logo_uri: meta.logo_uri ?? null,
    redirect_uris: JSON.stringify(meta.redirect_uris),
    auth_method: method,
    secret_hash: secret ? hashSecret(secret) : null,
    metadata: JSON.stringify(stored),
    created_at: now.toISOString(),
    cache_until: null,
    last_connected_at: null,
  });
  return {
    ...stored,
    client_id: clientId,
    client_id_issued_at: Math.floor(now.getTime() / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
  };
}

/** A stored client (registered, or a cached document whatever its age), or null. */
export async function storedClient(
  db: Database,
  clientId: string,
): Promise<(OAuthClient & { cacheUntil: string | null }) | null> {
  const row = (await db.knex('oauth_clients').where({ client_id: clientId }).first()) as
    ClientRow | undefined;
  return row ? { ...fromRow(row), cacheUntil: row.cache_until } : null;
}

/** Stores (or refreshes) a client's fetched document, cached until `cacheUntil`. */
export async function storeDocumentClient(
  db: Database,
  clientId: string,
  meta: ClientMetadata,
  now: Date,
  cacheUntil: Date,
): Promise<OAuthClient> {
  const row = {
    client_id: clientId,
    kind: 'document',
    client_name: meta.client_name ?? null,
    logo_uri: meta.logo_uri ?? null,
    redirect_uris: JSON.stringify(meta.redirect_uris),
    auth_method: 'none',
    secret_hash: null,
    metadata: JSON.stringify(meta),
    created_at: now.toISOString(),
    cache_until: cacheUntil.toISOString(),
  };
  await db
    .knex('oauth_clients')
    .insert({ ...row, last_connected_at: null })
    .onConflict('client_id')
    .merge([
      'client_name',
      'logo_uri',
      'redirect_uris',
      'metadata',
      'cache_until',
      'auth_method',
      'secret_hash',
    ]);
  return fromRow({ ...row, last_connected_at: null });
}

/** Marks a client as connected now (keeps it from the cleanup of clients nobody connected). */
export async function markConnected(db: Database, clientId: string, now: Date): Promise<void> {
  await db
    .knex('oauth_clients')
    .where({ client_id: clientId })
    .update({ last_connected_at: now.toISOString() });
}

/** Whether `secret` is the client's secret, compared in constant time. */
export function secretMatches(client: OAuthClient, secret: string | null): boolean {
  if (!client.secretHash || secret === null) return false;
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(client.secretHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Client authentication at the token and revocation endpoints: a public client names itself and
 * has no secret; a confidential one proves its secret, in a Basic header or in the body (either
 * is accepted whichever it registered: both are the same secret over TLS). An empty secret
 * (`client_secret=` in the body, or `client_id:` in a Basic header, which some libraries send for
 * every client) is no secret: a public client sending one names itself, as without it.
 */
export function authenticateClient(
  client: OAuthClient,
  presented: { method: 'basic' | 'post' | 'none'; secret: string | null },
): void {
  if (client.authMethod === 'none') {
    if (presented.method !== 'none' && presented.secret !== '')
      throw new OAuthError('invalid_client', 'this client is public and has no secret');
    return;
  }
  if (presented.method === 'none' || !secretMatches(client, presented.secret))
    throw new OAuthError('invalid_client', 'client authentication failed');
}
