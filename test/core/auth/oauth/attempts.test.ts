import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  addressNetwork,
  type ConnectLimits,
  refundConnectAttempt,
  reserveConnectAttempt,
  reserveRegistration,
} from '../../../../core/auth/oauth/attempts.ts';
import { purgeOAuth } from '../../../../core/auth/oauth/tokens.ts';
import type { Database } from '../../../../core/store/connection.ts';
import {
  openSharedTestDatabase,
  type SharedTestDatabase,
} from '../../../helpers/sharedDatabase.ts';
import { TEST_NOW } from '../../../helpers/testCore.ts';

const LIMITS: ConnectLimits = {
  windowMs: 15 * 60_000,
  perClientAddress: 3,
  perAddress: 5,
  clientCeiling: 8,
  underAttack: 1,
};
const at = (ms: number) => new Date(TEST_NOW.getTime() + ms);

/**
 * Connect-code attempts, limited across every connection to the database: per client and address,
 * per address across clients, and a client ceiling that slows a many-address guesser without
 * locking anyone out; reserved before the code is checked, refunded when it was right, cleaned
 * once their window ends.
 */
describe('connect-code attempts, shared through the database', () => {
  let shared: SharedTestDatabase;
  let a: Database;
  let b: Database;
  beforeEach(async () => {
    shared = await openSharedTestDatabase();
    a = shared.open();
    b = shared.open();
  });
  afterEach(async () => shared.close());

  const reserve = async (db: Database, client: string, address: string, now = TEST_NOW) =>
    (await reserveConnectAttempt(db, client, address, now, LIMITS)).allowed;

  it('allows `perClientAddress` attempts of one address on one client, whichever connection asks, then refuses that address only', async () => {
    expect(await reserve(a, 'claude', '203.0.113.7')).toBe(true);
    expect(await reserve(b, 'claude', '203.0.113.7')).toBe(true);
    expect(await reserve(a, 'claude', '203.0.113.7')).toBe(true);
    expect(await reserve(b, 'claude', '203.0.113.7')).toBe(false);
    expect(await reserve(a, 'claude', '203.0.113.7')).toBe(false);
    // Someone else, on the same popular client, is not locked out.
    expect(await reserve(b, 'claude', '198.51.100.20')).toBe(true);
    // The next window starts afresh for the attacker too.
    expect(await reserve(a, 'claude', '203.0.113.7', at(LIMITS.windowMs))).toBe(true);
  });

  it('limits one address across clients, so registering more clients buys no more guesses', async () => {
    for (let i = 0; i < LIMITS.perAddress; i += 1)
      expect(await reserve(i % 2 ? a : b, `dcr-${i}`, '203.0.113.7')).toBe(true);
    expect(await reserve(a, 'dcr-new', '203.0.113.7')).toBe(false);
    expect(await reserve(b, 'dcr-new', '198.51.100.20')).toBe(true);
  });

  it('counts an IPv6 address by its /64, and an IPv4-mapped one as IPv4', async () => {
    expect(addressNetwork('2001:db8:0:12::1')).toBe('2001:db8:0:12::/64');
    expect(addressNetwork('2001:DB8:0000:0012:ffff:1:2:3')).toBe('2001:db8:0:12::/64');
    expect(addressNetwork('::1')).toBe('0:0:0:0::/64');
    expect(addressNetwork('::ffff:203.0.113.7')).toBe('203.0.113.7');
    for (let i = 0; i < LIMITS.perClientAddress; i += 1)
      expect(await reserve(a, 'claude', `2001:db8:0:12::${i + 1}`)).toBe(true);
    expect(await reserve(b, 'claude', '2001:db8:0:12::ffff')).toBe(false);
    expect(await reserve(b, 'claude', '2001:db8:0:13::1')).toBe(true);
  });

  it('past the client ceiling, slows many addresses to one try each but still lets a new address in', async () => {
    // Eight addresses guess on one client: under the ceiling, each may try up to its own limit.
    const guessers = Array.from({ length: 4 }, (_, i) => `203.0.113.${i + 1}`);
    for (const address of guessers)
      for (let i = 0; i < 2; i += 1) expect(await reserve(a, 'claude', address)).toBe(true);
    // The ceiling (8) is reached: a guesser's third try on it, within its own limit, is refused…
    expect(await reserve(b, 'claude', guessers[0] ?? '')).toBe(false);
    // …while a person at an address that has not tried still gets one.
    expect(await reserve(b, 'claude', '198.51.100.20')).toBe(true);
    expect(await reserve(a, 'claude', '198.51.100.20')).toBe(false);
    // Other clients are not slowed.
    expect(await reserve(a, 'chatgpt', guessers[1] ?? '')).toBe(true);
  });

  it('keeps the bound when many attempts race from two connections', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => reserve(i % 2 === 0 ? a : b, 'race', '203.0.113.7')),
    );
    expect(answers.filter(Boolean)).toHaveLength(LIMITS.perClientAddress);
  });

  it('gives a right code its attempt back, and a process that dies before refunding fails closed', async () => {
    const first = await reserveConnectAttempt(a, 'claude', '203.0.113.7', TEST_NOW, LIMITS);
    expect(first.allowed).toBe(true);
    await refundConnectAttempt(b, first.keys, TEST_NOW, LIMITS);
    // Reserved, then the process stopped: the attempt stays counted.
    expect(await reserve(b, 'claude', '203.0.113.7')).toBe(true);
    expect(await reserve(a, 'claude', '203.0.113.7')).toBe(true);
    expect(await reserve(b, 'claude', '203.0.113.7')).toBe(true);
    expect(await reserve(a, 'claude', '203.0.113.7')).toBe(false);
  });

  it('is cleaned by the OAuth cleanup job once its window has ended', async () => {
    await reserve(a, 'old', '203.0.113.7');
    await reserve(a, 'new', '203.0.113.8', at(LIMITS.windowMs));
    await purgeOAuth(b, at(LIMITS.windowMs + 1));
    const left = (await a.knex('oauth_attempts').pluck('window_start')) as string[];
    expect(new Set(left)).toEqual(new Set([at(LIMITS.windowMs).toISOString()]));
    expect(left).toHaveLength(3); // pair, address and client of the new window's attempt
  });

  describe('client registrations', () => {
    const REGISTRATIONS = { windowMs: 60 * 60_000, perAddress: 4 };
    const register = async (db: Database, address: string, now = TEST_NOW) =>
      reserveRegistration(db, address, now, REGISTRATIONS);

    it('allows `perAddress` registrations of one network in a window, whichever connection asks, and says when to come back', async () => {
      for (let i = 0; i < REGISTRATIONS.perAddress; i += 1)
        expect((await register(i % 2 ? a : b, `2001:db8:0:12::${i + 1}`)).allowed).toBe(true);
      const refused = await register(a, '2001:db8:0:12::99', at(15 * 60_000));
      expect(refused).toEqual({ allowed: false, retryAfterSeconds: 45 * 60 });
      expect((await register(b, '198.51.100.20')).allowed).toBe(true);
      expect((await register(b, '2001:db8:0:12::1', at(REGISTRATIONS.windowMs))).allowed).toBe(
        true,
      );
    });

    it('keeps the bound when registrations race from two connections, apart from connect codes', async () => {
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) => register(i % 2 === 0 ? a : b, '203.0.113.7')),
      );
      expect(answers.filter((x) => x.allowed)).toHaveLength(REGISTRATIONS.perAddress);
      // Registering used none of the address's connect-code tries.
      expect(await reserve(a, 'claude', '203.0.113.7')).toBe(true);
    });
  });
});
