import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { refundAttempt, reserveAttempt } from '../../../../core/auth/oauth/attempts.ts';
import { purgeOAuth } from '../../../../core/auth/oauth/tokens.ts';
import type { Database } from '../../../../core/store/connection.ts';
import {
  openSharedTestDatabase,
  type SharedTestDatabase,
} from '../../../helpers/sharedDatabase.ts';
import { TEST_NOW } from '../../../helpers/testCore.ts';

const BOUND = { limit: 3, windowMs: 15 * 60_000 };
const at = (ms: number) => new Date(TEST_NOW.getTime() + ms);

/**
 * Connect-code attempts, limited per key across every connection to the database: reserved
 * before the code is checked, refunded when it was right, cleaned once their window ends.
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

  const reserve = (db: Database, keys: string[], now = TEST_NOW) =>
    reserveAttempt(db, keys, now, BOUND);

  it('allows `limit` attempts per key in a window, then refuses, whichever connection asks', async () => {
    expect(await reserve(a, ['client:x'])).toBe(true);
    expect(await reserve(b, ['client:x'])).toBe(true);
    expect(await reserve(a, ['client:x'])).toBe(true);
    expect(await reserve(b, ['client:x'])).toBe(false);
    expect(await reserve(a, ['client:y'])).toBe(true);
    // The next window starts afresh.
    expect(await reserve(b, ['client:x'], at(BOUND.windowMs))).toBe(true);
  });

  it('refuses when any one of the keys is spent (another address on a spent client)', async () => {
    for (let i = 0; i < 3; i += 1) await reserve(a, ['client:x', `addr:10.0.0.${i}`]);
    expect(await reserve(b, ['client:x', 'addr:10.0.0.9'])).toBe(false);
    expect(await reserve(b, ['client:z', 'addr:10.0.0.9'])).toBe(true);
  });

  it('keeps the bound when many attempts race from two connections', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => reserve(i % 2 === 0 ? a : b, ['client:race'])),
    );
    expect(answers.filter(Boolean)).toHaveLength(BOUND.limit);
  });

  it('gives a right code its attempt back, and a process that dies before refunding fails closed', async () => {
    expect(await reserve(a, ['client:x'])).toBe(true);
    await refundAttempt(a, ['client:x'], TEST_NOW, BOUND);
    // Reserved, then the process stopped: the attempt stays counted.
    expect(await reserve(b, ['client:x'])).toBe(true);
    expect(await reserve(a, ['client:x'])).toBe(true);
    expect(await reserve(b, ['client:x'])).toBe(true);
    expect(await reserve(a, ['client:x'])).toBe(false);
  });

  it('is cleaned by the OAuth cleanup job once its window has ended', async () => {
    await reserve(a, ['client:old']);
    await reserve(a, ['client:new'], at(BOUND.windowMs));
    await purgeOAuth(b, at(BOUND.windowMs + 1));
    const left = await a.knex('oauth_attempts').select('window_start');
    expect(left).toEqual([{ window_start: at(BOUND.windowMs).toISOString() }]);
  });
});
