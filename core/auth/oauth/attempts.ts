import { createHash } from 'node:crypto';
import { isIP } from 'node:net';

import type { Knex } from 'knex';

import type { Database } from '../../store/connection.ts';

/**
 * Connect-code attempts on the consent page, limited across every process on the database, in
 * fixed windows of `windowMs`, so that one person guessing cannot lock a client out for others.
 * Popular clients are shared: Claude.ai's or ChatGPT's one client_id serves every household, so a
 * limit per client alone would let one attacker typing wrong codes stop everyone from connecting.
 * Three counts instead (an address is its IPv4 address, or its IPv6 /64, which one machine has
 * whole):
 *
 * - per client **and** address (`perClientAddress`): the limit an attacker meets, at their address
 *   and on that client only;
 * - per address across clients (`perAddress`): clients are free to create (dynamic registration),
 *   so one address cannot multiply its budget by registering more;
 * - per client, from all addresses (`clientCeiling`): past it the client is under attack from many
 *   addresses, and each address then gets `underAttack` attempts on it per window instead of
 *   `perClientAddress`. That slows a distributed guesser (its guesses are bounded by its number of
 *   distinct addresses) and blocks nobody: a person at another address still gets a try, and a
 *   right code is never used up. Only attempts that got past the address's own limits count here,
 *   so one address adds at most `perClientAddress` to it.
 *
 * An attempt is reserved *before* the code is checked, with one atomic upsert per key that returns
 * the new count, so racing attempts from any number of processes cannot all pass the check and
 * then all fail: the bound is on reservations. A correct code refunds its reservation (a person
 * connecting does not use up the budget); a process that dies between the two leaves its attempt
 * counted (it fails closed), and so does a refused attempt. Fixed windows let at most twice a
 * limit through around a window's edge: with 40-bit codes living 10 minutes, guessing stays
 * hopeless.
 */
export interface ConnectLimits {
  windowMs: number;
  perClientAddress: number;
  perAddress: number;
  clientCeiling: number;
  underAttack: number;
}

export const CONNECT_CODE_LIMITS: ConnectLimits = {
  windowMs: 15 * 60_000,
  perClientAddress: 5,
  perAddress: 20,
  clientCeiling: 100,
  underAttack: 1,
};

/** The keys one attempt is counted under; hand them back to `refundConnectAttempt`. */
export interface AttemptKeys {
  pair: string;
  address: string;
  client: string;
}

/** The network an address counts as: IPv4 as it is, IPv6 by its /64 (lower-case, expanded). */
export function addressNetwork(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (isIP(address) !== 6) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('%')[0]?.split('::') ?? [];
  const left = head === '' ? [] : head.split(':');
  const right = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

export function attemptKeys(clientId: string, address: string): AttemptKeys {
  const network = addressNetwork(address);
  return {
    pair: `pair:${clientId}\u0000${network}`,
    address: `addr:${network}`,
    client: `client:${clientId}`,
  };
}

function keyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function windowOf(now: Date, windowMs: number): { start: string; end: string } {
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return { start: new Date(start).toISOString(), end: new Date(start + windowMs).toISOString() };
}

/** Counts one attempt under `key` in the window of `now`; the count including it. */
async function count(trx: Knex, key: string, now: Date, windowMs: number): Promise<number> {
  const { start, end } = windowOf(now, windowMs);
  const rows: Array<{ attempts: number | string }> = await trx('oauth_attempts')
    .insert({ key_hash: keyHash(key), window_start: start, attempts: 1, expires_at: end })
    .onConflict(['key_hash', 'window_start'])
    .merge({ attempts: trx.raw('?? + 1', ['oauth_attempts.attempts']) })
    .returning('attempts');
  return Number(rows[0]?.attempts ?? Infinity);
}

/**
 * Reserves one connect-code attempt of `address` on `clientId`; `allowed` is false when it is
 * past a limit (check no code then, and answer "too many tries"). `keys` are what was counted.
 */
export async function reserveConnectAttempt(
  db: Database,
  clientId: string,
  address: string,
  now: Date,
  limits: ConnectLimits = CONNECT_CODE_LIMITS,
): Promise<{ allowed: boolean; keys: string[] }> {
  const k = attemptKeys(clientId, address);
  // One transaction, the keys always counted in the same order: an attempt's counts are one step
  // (SQLite: one writer at a time; PostgreSQL: the rows stay locked until commit), so racing
  // attempts are counted one after the other and exactly the limit of them is allowed.
  return db.knex.transaction(async (trx) => {
    const pair = await count(trx, k.pair, now, limits.windowMs);
    const perAddress = await count(trx, k.address, now, limits.windowMs);
    if (pair > limits.perClientAddress || perAddress > limits.perAddress)
      return { allowed: false, keys: [k.pair, k.address] };
    const client = await count(trx, k.client, now, limits.windowMs);
    const allowed = client <= limits.clientCeiling || pair <= limits.underAttack;
    return { allowed, keys: [k.pair, k.address, k.client] };
  });
}

/** Gives back a reservation whose code was right (the `keys` `reserveConnectAttempt` returned). */
export async function refundConnectAttempt(
  db: Database,
  keys: readonly string[],
  now: Date,
  limits: Pick<ConnectLimits, 'windowMs'> = CONNECT_CODE_LIMITS,
): Promise<void> {
  const { start } = windowOf(now, limits.windowMs);
  await db
    .knex('oauth_attempts')
    .whereIn(
      'key_hash',
      keys.map((k) => keyHash(k)),
    )
    .where({ window_start: start })
    .where('attempts', '>', 0)
    .decrement('attempts', 1);
}

/**
 * Dynamic client registrations one address may make in a window, across every process: a
 * registration is free and anonymous (RFC 7591), so without a bound one address could fill the
 * clients table (clients nobody connected are only removed after a week). A person's client
 * registers once per connection attempt; 30 an hour leaves room for retries and several apps
 * behind one address (a household's router), and none for a flood.
 */
export interface RegistrationLimits {
  windowMs: number;
  perAddress: number;
}

export const REGISTRATION_LIMITS: RegistrationLimits = { windowMs: 60 * 60_000, perAddress: 30 };

/**
 * Counts one registration of `address` (by its network, as `addressNetwork`); `allowed` is false
 * past the limit, with the seconds until its window ends (for Retry-After). One atomic upsert: racing
 * registrations from any number of processes are counted one after the other.
 */
export async function reserveRegistration(
  db: Database,
  address: string,
  now: Date,
  limits: RegistrationLimits = REGISTRATION_LIMITS,
): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
  const registered = await count(
    db.knex,
    `register:${addressNetwork(address)}`,
    now,
    limits.windowMs,
  );
  const { end } = windowOf(now, limits.windowMs);
  return {
    allowed: registered <= limits.perAddress,
    retryAfterSeconds: Math.max(1, Math.ceil((Date.parse(end) - now.getTime()) / 1000)),
  };
}

/** The cleanup job's part: windows that have ended. */
export async function purgeAttempts(db: Database, now: Date): Promise<void> {
  await db.knex('oauth_attempts').where('expires_at', '<=', now.toISOString()).delete();
}
