import type { Database } from '../store/connection.ts';
import { purgeOAuth } from './oauth/tokens.ts';

/** What one cleanup run removed. */
export interface CredentialsPurged {
  tokens: number;
  sessions: number;
}

/**
 * The cleanup job's work on credentials past their expiry (run once across processes by the
 * scheduler's `job_runs` claim): agent tokens and their last-use rows, web sessions, and OAuth
 * codes and tokens (with the clients nobody connected, `purgeOAuth`). Each is already refused
 * when presented; this only stops them piling up. Each delete is one statement, so two runs at
 * once (a lease that lapsed) remove each row once and fail on none.
 */
export async function purgeExpiredCredentials(db: Database, now: Date): Promise<CredentialsPurged> {
  const iso = now.toISOString();
  const expired = db
    .knex('tokens')
    .select('id')
    .whereNotNull('expires_at')
    .where('expires_at', '<', iso);
  await db.knex('token_uses').whereIn('token_id', expired).delete();
  const tokens = Number(
    await db.knex('tokens').whereNotNull('expires_at').where('expires_at', '<', iso).delete(),
  );
  const sessions = Number(await db.knex('web_sessions').where('expires_at', '<', iso).delete());
  await purgeOAuth(db, now);
  return { tokens, sessions };
}
