import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request } from 'node:https';
import { BlockList, isIP } from 'node:net';

import { OAuthError } from './errors.ts';

/**
 * One GET of something a client names (its metadata document, its logo) with SSRF guards: https
 * only, no user info; every address the host resolves to must be public (no private, loopback,
 * link-local, CGNAT, multicast or unspecified address), checked in the lookup the connection
 * itself uses, so a second resolution cannot differ (DNS rebinding); no redirects; at most
 * `maxBytes` (declared or read) and `timeoutMs` for the whole exchange. `trustedHosts` lifts the
 * address check for the hosts named (tests serve on 127.0.0.1); `ca` adds a CA to trust (a private
 * CA in tests). Every refusal is an `OAuthError('invalid_client', <what went wrong>)`, `what`
 * naming the thing fetched.
 */
export interface GuardOptions {
  maxBytes: number;
  timeoutMs: number;
  trustedHosts?: readonly string[] | undefined;
  ca?: string | undefined;
}

export interface Fetched {
  body: Buffer;
  contentType: string | undefined;
  cacheControl: string | undefined;
}

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

/** Whether an address is one nothing may be fetched from. */
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

/**
 * GETs `url` under the guards; `what` names it in every refusal ("client metadata document"),
 * `whose` the URL it came from in a refusal of its host ("client_id").
 */
export function guardedGet(
  url: URL,
  names: { what: string; whose: string },
  accept: string,
  options: GuardOptions,
): Promise<Fetched> {
  const { what, whose } = names;
  if (url.protocol !== 'https:')
    return Promise.reject(new OAuthError('invalid_client', `${whose} must be https`));
  if (url.username || url.password)
    return Promise.reject(new OAuthError('invalid_client', `${whose} may not carry user info`));
  const { maxBytes, timeoutMs } = options;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const trusted = (options.trustedHosts ?? []).includes(host);
  if (!trusted && isIP(host) !== 0 && isBlockedAddress(host))
    return Promise.reject(new OAuthError('invalid_client', `${whose} host is not public`));
  return new Promise((resolve, reject) => {
    const fail = (description: string): void => {
      req.destroy();
      reject(new OAuthError('invalid_client', description));
    };
    const timer = setTimeout(() => fail(`${what} took too long`), timeoutMs);
    const req = request(
      url,
      {
        method: 'GET',
        headers: { accept },
        lookup: guardedLookup(trusted),
        ...(options.ca ? { ca: options.ca } : {}),
        // No redirects: what a client names lives at its own URL.
      },
      (res) => {
        if (res.statusCode !== 200) {
          clearTimeout(timer);
          res.resume();
          return fail(`${what} answered ${res.statusCode ?? 'nothing'}`);
        }
        const declared = Number(res.headers['content-length'] ?? '0');
        if (declared > maxBytes) {
          clearTimeout(timer);
          return fail(`${what} is too large`);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            clearTimeout(timer);
            fail(`${what} is too large`);
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => {
          clearTimeout(timer);
          if (size > maxBytes) return;
          resolve({
            body: Buffer.concat(chunks),
            contentType: res.headers['content-type'],
            cacheControl: res.headers['cache-control'],
          });
        });
        res.on('error', () => {
          clearTimeout(timer);
          fail(`${what} could not be read`);
        });
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        new OAuthError(
          'invalid_client',
          error.code === 'EXHALE_BLOCKED_ADDRESS'
            ? `${whose} host is not public`
            : `${what} could not be fetched`,
        ),
      );
    });
    req.end();
  });
}
