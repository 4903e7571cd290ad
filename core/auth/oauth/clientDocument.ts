import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request } from 'node:https';
import { BlockList, isIP } from 'node:net';

import type { Database } from '../../store/connection.ts';
import { checkMetadata, type OAuthClient, storedClient, storeDocumentClient } from './clients.ts';
import { OAuthError } from './errors.ts';

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
}

const DEFAULT_MAX_BYTES = 16 * 1024;
const DEFAULT_TIMEOUT_MS = 5_000;
/** Cache bounds: a document without caching headers is kept 10 minutes, none more than a day. */
const DEFAULT_CACHE_MS = 10 * 60_000;
const MAX_CACHE_MS = 24 * 60 * 60_000;

const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(net, prefix, 'ipv6');

/** Whether an address is one a document may not be fetched from. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  // IPv4-mapped IPv6 (::ffff:a.b.c.d) is judged as the IPv4 address it carries. (A subnet rule for
  // ::ffff:0:0/96 would also match every plain IPv4 address: BlockList maps them.)
  if (family === 6 && address.toLowerCase().startsWith('::ffff:')) {
    const v4 = address.slice(7);
    if (isIP(v4) === 4) return BLOCKED.check(v4, 'ipv4');
  }
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

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

type Lookup = (
  hostname: string,
  options: { all?: boolean | undefined },
  callback: (
    error: NodeJS.ErrnoException | null,
    address: string | LookupAddress[],
    family?: number,
  ) => void,
) => void;

/** A DNS lookup that refuses blocked addresses, so the socket connects only to a checked one. */
function guardedLookup(trusted: boolean): Lookup {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (
        !trusted &&
        (addresses.length === 0 || addresses.some((a) => isBlockedAddress(a.address)))
      ) {
        const refused: NodeJS.ErrnoException = new Error(
          `${hostname} resolves to an address that is not public`,
        );
        refused.code = 'EXHALE_BLOCKED_ADDRESS';
        return callback(refused, []);
      }
      const first = addresses[0];
      if (options.all === true || !first) callback(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

interface Fetched {
  body: string;
  cacheMs: number;
}

function cacheMsOf(cacheControl: string | undefined): number {
  if (!cacheControl) return DEFAULT_CACHE_MS;
  if (/\bno-store\b|\bno-cache\b/i.test(cacheControl)) return 0;
  const maxAge = /\bmax-age=(\d+)/i.exec(cacheControl);
  if (!maxAge?.[1]) return DEFAULT_CACHE_MS;
  return Math.min(Number(maxAge[1]) * 1000, MAX_CACHE_MS);
}

function fetchDocument(url: URL, options: DocumentFetchOptions): Promise<Fetched> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const trusted = (options.trustedHosts ?? []).includes(host);
  if (!trusted && isIP(host) !== 0 && isBlockedAddress(host))
    return Promise.reject(new OAuthError('invalid_client', 'client_id host is not public'));
  return new Promise((resolve, reject) => {
    const fail = (description: string): void => {
      req.destroy();
      reject(new OAuthError('invalid_client', description));
    };
    const timer = setTimeout(() => fail('client metadata document took too long'), timeoutMs);
    const req = request(
      url,
      {
        method: 'GET',
        headers: { accept: 'application/json' },
        lookup: guardedLookup(trusted),
        // No redirects: the document lives at its own URL.
      },
      (res) => {
        if (res.statusCode !== 200) {
          clearTimeout(timer);
          res.resume();
          return fail(`client metadata document answered ${res.statusCode ?? 'nothing'}`);
        }
        const declared = Number(res.headers['content-length'] ?? '0');
        if (declared > maxBytes) {
          clearTimeout(timer);
          return fail('client metadata document is too large');
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            clearTimeout(timer);
            fail('client metadata document is too large');
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          clearTimeout(timer);
          if (size > maxBytes) return;
          resolve({
            body: Buffer.concat(chunks).toString('utf8'),
            cacheMs: cacheMsOf(res.headers['cache-control']),
          });
        });
        res.on('error', () => {
          clearTimeout(timer);
          fail('client metadata document could not be read');
        });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        new OAuthError(
          'invalid_client',
          error.code === 'EXHALE_BLOCKED_ADDRESS'
            ? 'client_id host is not public'
            : 'client metadata document could not be fetched',
        ),
      );
    });
    req.end();
  });
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
