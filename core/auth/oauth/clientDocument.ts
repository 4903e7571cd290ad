import type { Database } from '../../store/connection.ts';
import { checkMetadata, type OAuthClient, storedClient, storeDocumentClient } from './clients.ts';
import { OAuthError } from './errors.ts';
import { guardedGet } from './guardedFetch.ts';

export { isBlockedAddress } from './guardedFetch.ts';

/**
 * Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document, MCP 2026-07-28):
 * a `client_id` that is an https URL names a JSON document the client serves. Exhale fetches it
 * with SSRF guards, checks it, and caches it as HTTP caching says.
 *
 * Guards: https only, no user info or fragment, a path; every address the host resolves to must
 * be public (no private, loopback, link-local, CGNAT, multicast or unspecified address), checked
 * in the lookup the connection itself uses, so a second resolution cannot differ (DNS rebinding);
 * no redirects; at most `maxBytes` and `timeoutMs`. `trustedHosts` lifts the address check for
 * the hosts named (tests serve a document on 127.0.0.1); it is empty unless configured.
 */
export interface DocumentFetchOptions {
  maxBytes?: number | undefined;
  timeoutMs?: number | undefined;
  trustedHosts?: readonly string[] | undefined;
  /** A CA to trust besides the system's (PEM; a private CA in tests). */
  ca?: string | undefined;
  /** Limits for the client's logo (by default 64 KiB and the document's time limit). */
  logoMaxBytes?: number | undefined;
}

const DEFAULT_MAX_BYTES = 16 * 1024;
const DEFAULT_TIMEOUT_MS = 5_000;
interface FetchedDocument {
  body: string;
  cacheMs: number;
}

/** Cache bounds: a document without caching headers is kept 10 minutes, none more than a day. */
const DEFAULT_CACHE_MS = 10 * 60_000;
const MAX_CACHE_MS = 24 * 60 * 60_000;

/** Whether a `client_id` is a document URL (rather than a registered client's id). */
export function isDocumentClientId(clientId: string): boolean {
  return clientId.startsWith('https://');
}

function documentUrl(clientId: string): URL {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    throw new OAuthError('invalid_client', 'client_id is not a URL');
  }
  if (url.protocol !== 'https:') throw new OAuthError('invalid_client', 'client_id must be https');
  if (url.username || url.password || url.hash || clientId.includes('#'))
    throw new OAuthError('invalid_client', 'client_id may not carry user info or a fragment');
  if (url.pathname === '/' || url.pathname === '')
    throw new OAuthError('invalid_client', 'client_id must have a path');
  if (/(^|\/)\.\.?(\/|$)/.test(url.pathname))
    throw new OAuthError('invalid_client', 'client_id may not have dot segments');
  return url;
}

function cacheMsOf(cacheControl: string | undefined): number {
  if (!cacheControl) return DEFAULT_CACHE_MS;
  if (/\bno-store\b|\bno-cache\b/i.test(cacheControl)) return 0;
  const maxAge = /\bmax-age=(\d+)/i.exec(cacheControl);
  if (!maxAge?.[1]) return DEFAULT_CACHE_MS;
  return Math.min(Number(maxAge[1]) * 1000, MAX_CACHE_MS);
}

async function fetchDocument(url: URL, options: DocumentFetchOptions): Promise<FetchedDocument> {
  const fetched = await guardedGet(
    url,
    { what: 'client metadata document', whose: 'client_id' },
    'application/json',
    {
      maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      trustedHosts: options.trustedHosts,
      ca: options.ca,
    },
  );
  return { body: fetched.body.toString('utf8'), cacheMs: cacheMsOf(fetched.cacheControl) };
}

/**
 * The client a document URL names: from the cache while it is fresh, else fetched and checked
 * (JSON object, `client_id` equal to its URL, redirect URIs valid, public client only).
 */
export async function documentClient(
  db: Database,
  clientId: string,
  now: Date,
  options: DocumentFetchOptions = {},
): Promise<OAuthClient> {
  const url = documentUrl(clientId);
  const cached = await storedClient(db, clientId);
  if (
    cached?.kind === 'document' &&
    cached.cacheUntil !== null &&
    cached.cacheUntil > now.toISOString()
  )
    return cached;
  const fetched = await fetchDocument(url, options);
  let json: unknown;
  try {
    json = JSON.parse(fetched.body);
  } catch {
    throw new OAuthError('invalid_client', 'client metadata document is not JSON');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new OAuthError('invalid_client', 'client metadata document is not a JSON object');
  if ((json as { client_id?: unknown }).client_id !== clientId)
    throw new OAuthError('invalid_client', 'client metadata document names another client_id');
  let meta;
  try {
    meta = checkMetadata(json);
  } catch (error) {
    throw new OAuthError(
      'invalid_client',
      `client metadata document: ${error instanceof Error ? error.message : 'invalid'}`,
    );
  }
  const method = meta.token_endpoint_auth_method ?? 'none';
  if (method !== 'none')
    throw new OAuthError(
      'invalid_client',
      'a client metadata document client must be public (token_endpoint_auth_method none)',
    );
  return storeDocumentClient(db, clientId, meta, now, new Date(now.getTime() + fetched.cacheMs));
}
