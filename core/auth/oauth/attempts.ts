import { createHash } from 'node:crypto';

import type { Database } from '../../store/connection.ts';

/**
 * Connect-code attempts on the consent page, limited per client and per address across every
 * process on the database: at most `limit` attempts that were not refunded (wrong codes) per key
 * in a fixed window of `windowMs`.
 *
 * An attempt is reserved *before* the code is checked, with one atomic upsert per key that
 * returns the new count, so racing attempts from any number of processes cannot all pass the
 * check and then all fail: the bound is on reservations. A correct code refunds its reservation
 * (a person connecting does not use up the budget); a process that dies between the two leaves
 * its attempt counted (it fails closed). Fixed windows let at most `2 × limit` through around a
 * window's edge: with 40-bit codes living 10 minutes, guessing stays hopeless.
 */
export interface AttemptLimit {
  limit: number;
  windowMs: number;
}

export const CONNECT_CODE_ATTEMPTS: AttemptLimit = { limit: 5, windowMs: 15 * 60_000 };

function keyHash(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function windowOf(now: Date, windowMs: number): { start: string; end: string } {
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return { start: new Date(start).toISOString(), end: new Date(start + windowMs).toISOString() };
}

/**
 * Reserves one attempt for every key; false when any key is past its limit in this window (the
 * attempt is refused: check nothing). A refused attempt stays counted, like any other.
 */
export async function reserveAttempt(
  db: Database,
  keys: readonly string[],
  now: Date,
  bound: AttemptLimit = CONNECT_CODE_ATTEMPTS,
): Promise<boolean> {
  const { start, end } = windowOf(now, bound.windowMs);
  let allowed = true;
  for (const key of keys) {
    const rows: Array<{ attempts: number | string }> = await db
      .knex('oauth_attempts')
      .insert({ key_hash: keyHash(key), window_start: start, attempts: 1, expires_at: end })
      .onConflict(['key_hash', 'window_start'])
      .merge({ attempts: db.knex.raw('?? + 1', ['oauth_attempts.attempts']) })
      .returning('attempts');
    if (Number(rows[0]?.attempts ?? Infinity) > bound.limit) allowed = false;
  }
  return allowed;
}

/** Gives back a reservation whose code was right. */
export async function refundAttempt(
  db: Database,
  keys: readonly string[],
  now: Date,
  bound: AttemptLimit = CONNECT_CODE_ATTEMPTS,
): Promise<void> {
  const { start } = windowOf(now, bound.windowMs);
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

/** The cleanup job's part: windows that have ended. */
export async function purgeAttempts(db: Database, now: Date): Promise<void> {
  await db.knex('oauth_attempts').where('expires_at', '<=', now.toISOString()).delete();
}
