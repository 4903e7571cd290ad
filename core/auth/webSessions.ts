import type { Knex } from 'knex';

import { type Actor, memberActor } from '../kernel/actor.ts';
import { cachedRead, type Freshness } from '../kernel/readCache.ts';
import type { Database } from '../store/connection.ts';
import { hashSecret, isSecretShaped, randomSecret } from './secrets.ts';

/**
 * Web sessions: what a browser's `exhale_session` cookie stands for once a sign-in code was
 * redeemed. The cookie holds a random secret (`exs_` and 32 base-32 characters, 160 bits); the
 * table holds its SHA-256. A session acts as its member, in person, on the `web` channel; it stops
 * working when ended (`end_web_session`), when it expires, or when the member leaves.
 */
export const SESSION_PREFIX = 'exs_';
const SESSION_LENGTH = 32;

/** How long a session lasts from sign-in. */
export const SESSION_TTL_MS = 30 * 24 * 3_600_000;

/** `last_used_at` is written at most this often per session and process (no write per request). */
const LAST_USE_EVERY_MS = 60_000;
const lastWritten = new WeakMap<Database, Map<string, number>>();

/** The most of a browser's User-Agent kept, to tell sessions apart in the list. */
const USER_AGENT_MAX = 200;

export interface StartedSession {
  id: string;
  /** The cookie's value: sent once, in Set-Cookie. */
  token: string;
  expiresAt: string;
}

/** Starts a session for a member inside `trx` (the transaction that redeemed their code). */
export async function startWebSession(
  trx: Knex.Transaction,
  session: {
    id: string;
    householdId: string;
    memberId: string;
    userAgent: string | null;
    now: Date;
  },
): Promise<StartedSession> {
  const token = randomSecret(SESSION_LENGTH, SESSION_PREFIX);
  const expiresAt = new Date(session.now.getTime() + SESSION_TTL_MS).toISOString();
  await trx('web_sessions').insert({
    id: session.id,
    token_hash: hashSecret(token),
    household_id: session.householdId,
    member_id: session.memberId,
    created_at: session.now.toISOString(),
    last_used_at: session.now.toISOString(),
    expires_at: expiresAt,
    ended_at: null,
    user_agent: session.userAgent === null ? null : session.userAgent.slice(0, USER_AGENT_MAX),
  });
  return { id: session.id, token, expiresAt };
}

export type SessionCheck =
  { ok: true; sessionId: string; actor: Actor } | { ok: false; reason: 'invalid' | 'expired' };

interface SessionMemberRow {
  id: string;
  expires_at: string;
  member_id: string;
  household_id: string;
  role: string;
  language: string;
}

/** The household of each session hash this process has seen valid: where its cache entry lives. */
const householdOfSession = new WeakMap<Database, Map<string, string>>();

/**
 * The member a cookie's token stands for. Unknown, ended, or of a member who left: invalid; past
 * its expiry: expired. The lookup is kept in its household's read cache as strictly as an agent
 * token's (`authenticateToken`; core/kernel/readCache.ts, `strict`): on SQLite it is dropped by
 * any change of the household (`end_web_session`, a member removed, a role or language changed,
 * in this process or any other through `PRAGMA data_version`, checked at each request); on
 * PostgreSQL it is read every time, since another process's change event comes a moment after its
 * commit. So an ended session is refused from the next request on, in any process. A hash is
 * looked up in the cache only once it was found valid (a miss is never kept: a session started
 * later, written outside an op, is seen at once). The expiry is checked on every call, outside
 * the cache. `fresh`: the request's freshness check, shared with the kernel's.
 */
export async function authenticateSession(
  db: Database,
  token: string,
  now: Date,
  options: { fresh?: Freshness | undefined } = {},
): Promise<SessionCheck> {
  if (!isSecretShaped(token, SESSION_LENGTH, SESSION_PREFIX))
    return { ok: false, reason: 'invalid' };
  const hash = hashSecret(token);
  let seen = householdOfSession.get(db);
  if (!seen) {
    seen = new Map();
    householdOfSession.set(db, seen);
  }
  const known = seen.get(hash);
  const row = known
    ? await cachedRead(db.knex, known, `session:${hash}`, '', () => lookUp(db, hash), {
        strict: true,
        fresh: options.fresh,
      })
    : await lookUp(db, hash);
  if (!row) {
    seen.delete(hash);
    return { ok: false, reason: 'invalid' };
  }
  seen.set(hash, row.household_id);
  if (row.expires_at <= now.toISOString()) return { ok: false, reason: 'expired' };
  await recordUse(db, row.id, now);
  const actor = memberActor(
    { id: row.member_id, household_id: row.household_id, role: row.role, language: row.language },
    'web',
  );
  return { ok: true, sessionId: row.id, actor };
}

/** The open session of a token hash with its member's role and language, or null. */
async function lookUp(db: Database, hash: string): Promise<SessionMemberRow | null> {
  const row = (await db
    .knex('web_sessions')
    .join('members', function joinMember() {
      this.on('members.id', '=', 'web_sessions.member_id').andOn(
        'members.household_id',
        '=',
        'web_sessions.household_id',
      );
    })
    .where('web_sessions.token_hash', hash)
    .whereNull('web_sessions.ended_at')
    .first(
      'web_sessions.id',
      'web_sessions.expires_at',
      'web_sessions.member_id',
      'web_sessions.household_id',
      'members.role',
      'members.language',
    )) as SessionMemberRow | undefined;
  return row ?? null;
}

/** Bookkeeping, not audited: when the session was last seen, throttled per session. */
async function recordUse(db: Database, sessionId: string, now: Date): Promise<void> {
  let seen = lastWritten.get(db);
  if (!seen) {
    seen = new Map();
    lastWritten.set(db, seen);
  }
  const previous = seen.get(sessionId);
  if (
    previous !== undefined &&
    now.getTime() - previous < LAST_USE_EVERY_MS &&
    now.getTime() >= previous
  )
    return;
  seen.set(sessionId, now.getTime());
  await db
    .knex('web_sessions')
    .where({ id: sessionId })
    .update({ last_used_at: now.toISOString() });
}
