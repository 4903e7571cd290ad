import type { Actor, Scope } from '../kernel/actor.ts';
import { SCOPES } from '../kernel/actor.ts';
import { cachedRead, type Freshness } from '../kernel/readCache.ts';
import type { Database } from '../store/connection.ts';
import { hashToken, isTokenShaped } from './tokens.ts';

interface TokenMemberRow {
  id: string;
  household_id: string;
  member_id: string;
  name: string;
  scope: string;
  role: string;
  language: string;
  expires_at: string | null;
}

/** Last use is written at most this often per token and process, so a busy agent costs no write per call. */
const LAST_USE_EVERY_MS = 60_000;
const lastWritten = new WeakMap<Database, Map<string, number>>();

/** The household of each token hash this process has seen valid: where its cache entry lives. */
const householdOfToken = new WeakMap<Database, Map<string, string>>();

/**
 * The agent a raw bearer token stands for, or null when the token is malformed, unknown, revoked,
 * past its expiry, or its member has left the household. The lookup is kept in its household's read cache
 * (core/kernel/readCache.ts, strict: on SQLite, where `PRAGMA data_version` is checked at each
 * request; on PostgreSQL it is looked up every time), dropped by any change to the household, so
 * a revocation, in this process or another, takes effect on the next request. The actor acts as
 * the token's member, never above the token's scope, over the `mcp` channel; the MCP layer fills
 * in the client's name. `fresh`: the request's freshness check (readCache.ts), shared with the
 * op call it authenticates, so the request reads SQLite's data_version once.
 */
export async function authenticateToken(
  db: Database,
  rawToken: string,
  now: Date,
  fresh?: Freshness,
): Promise<Actor | null> {
  if (!isTokenShaped(rawToken)) return null;
  const hash = hashToken(rawToken);
  let seen = householdOfToken.get(db);
  if (!seen) {
    seen = new Map();
    householdOfToken.set(db, seen);
  }
  const known = seen.get(hash);
  const row = known
    ? await cachedRead(db.knex, known, `token:${hash}`, '', () => lookUp(db, hash), {
        strict: true,
        fresh,
      })
    : await lookUp(db, hash);
  if (!row) return null;
  seen.set(hash, row.household_id);
  // Checked on every request, outside the cache: expiry comes with time, not with a change.
  if (row.expires_at !== null && row.expires_at <= now.toISOString()) return null;
  const scope = SCOPES.find((s) => s === row.scope);
  if (!scope) return null;
  await recordUse(db, { table: 'token_uses', key: 'token_id' }, row.id, now);
  return agentActor(row, scope, { name: row.name, tokenId: row.id });
}

/** The token row of a hash with its member's role and language, when valid. */
async function lookUp(db: Database, hash: string): Promise<TokenMemberRow | null> {
  const row = (await db
    .knex('tokens')
    .join('members', function joinMember() {
      this.on('members.id', '=', 'tokens.member_id').andOn(
        'members.household_id',
        '=',
        'tokens.household_id',
      );
    })
    .where('tokens.hash', hash)
    .whereNull('tokens.revoked_at')
    .first(
      'tokens.id',
      'tokens.household_id',
      'tokens.member_id',
      'tokens.name',
      'tokens.scope',
      'tokens.expires_at',
      'members.role',
      'members.language',
    )) as TokenMemberRow | undefined;
  return row ?? null;
}

/** The member a credential acts for, as the kernel needs them (an agent token or an OAuth grant). */
export interface CredentialMember {
  household_id: string;
  member_id: string;
  role: string;
  language: string;
}

/** The agent actor of a credential: its member, within `scope`, named after the agent. */
export function agentActor(
  member: CredentialMember,
  scope: Scope,
  agent: { name: string; tokenId: string },
): Actor {
  return {
    kind: 'agent',
    householdId: member.household_id,
    memberId: member.member_id,
    role: member.role === 'owner' ? 'owner' : 'member',
    scope,
    channel: 'mcp',
    locale: member.language === 'es' ? 'es' : 'en',
    agent,
  };
}

/** Where a credential's last use is kept: `token_uses` for agent tokens, `oauth_grant_uses` for grants. */
export type UseTable =
  { table: 'token_uses'; key: 'token_id' } | { table: 'oauth_grant_uses'; key: 'grant_id' };

/** Upserts a credential's last use (bookkeeping, not audited), throttled per credential and process. */
export async function recordUse(
  db: Database,
  where: UseTable,
  id: string,
  now: Date,
): Promise<void> {
  let seen = lastWritten.get(db);
  if (!seen) {
    seen = new Map();
    lastWritten.set(db, seen);
  }
  const key = `${where.table}:${id}`;
  const previous = seen.get(key);
  if (
    previous !== undefined &&
    now.getTime() - previous < LAST_USE_EVERY_MS &&
    now.getTime() >= previous
  )
    return;
  seen.set(key, now.getTime());
  await db
    .knex(where.table)
    .insert({ [where.key]: id, last_used_at: now.toISOString() })
    .onConflict(where.key)
    .merge(['last_used_at']);
}
