import { randomBytes } from 'node:crypto';

import type { Knex } from 'knex';

import type { Database } from '../store/connection.ts';
import type { DueReminder, Reminder } from './types.ts';

/**
 * A claim lasts this long. A process that claimed a reminder and died before sending it leaves a
 * claim that another process may take over once the lease has run out; a failed send is retried
 * after the same delay.
 */
export const LEASE_MS = 2 * 60_000;
/** Sends are tried this many times before a reminder is given up (status `failed`). */
export const MAX_ATTEMPTS = 5;

interface LogRow {
  id: string;
  status: string;
  claim_token: string | null;
  claimed_at: string | null;
  attempts: number;
}

function logRow(
  r: Reminder,
  status: 'claimed' | 'superseded',
  token: string | null,
  now: string,
): Record<string, string | number | null> {
  return {
    id: r.key,
    household_id: r.householdId,
    member_id: r.memberId,
    kind: r.kind,
    subject_id: r.key.split(':')[1] ?? r.subscriptionId,
    event_date: r.eventDate,
    offset_days: r.offsetDays,
    fire_at: r.fireAt,
    status,
    claim_token: token,
    claimed_at: status === 'claimed' ? now : null,
    attempts: status === 'claimed' ? 1 : 0,
    last_error: null,
    sent_at: null,
    created_at: now,
  };
}

/**
 * Claims a due reminder for this process, in one transaction: inserts its log row (the primary key
 * makes exactly one process win, on SQLite and PostgreSQL alike), or takes over a stale claim whose
 * lease ran out. Records the offsets it supersedes. Returns the claim token, or null when another
 * process has it or it was already sent.
 */
export async function claimReminder(
  db: Database,
  due: DueReminder,
  now: Date,
): Promise<string | null> {
  const token = randomBytes(12).toString('hex');
  const nowIso = now.toISOString();
  return db.knex.transaction(async (trx) => {
    const inserted = (await trx('reminder_log')
      .insert(logRow(due.reminder, 'claimed', token, nowIso))
      .onConflict('id')
      .ignore()
      .returning('id')) as unknown[];
    let claimed = inserted.length === 1;
    if (!claimed) claimed = await takeOverStale(trx, due.reminder.key, token, now);
    if (!claimed) return null;
    for (const older of due.supersedes) {
      await trx('reminder_log')
        .insert(logRow(older, 'superseded', null, nowIso))
        .onConflict('id')
        .ignore();
    }
    return token;
  });
}

async function takeOverStale(
  trx: Knex.Transaction,
  key: string,
  token: string,
  now: Date,
): Promise<boolean> {
  const row = (await trx('reminder_log').where({ id: key }).first()) as LogRow | undefined;
  if (!row || row.status !== 'claimed' || row.attempts >= MAX_ATTEMPTS) return false;
  const leaseStart = new Date(now.getTime() - LEASE_MS).toISOString();
  if (row.claimed_at !== null && row.claimed_at >= leaseStart) return false;
  // Optimistic: the row must still be exactly as read, so two processes cannot both take it over.
  const updated = await trx('reminder_log')
    .where({ id: key, status: 'claimed', attempts: row.attempts })
    .andWhere((q) =>
      row.claimed_at === null ? q.whereNull('claimed_at') : q.where('claimed_at', row.claimed_at),
    )
    .update({ claim_token: token, claimed_at: now.toISOString(), attempts: row.attempts + 1 });
  return Number(updated) === 1;
}

/** Records a claimed reminder as sent. */
export async function markSent(db: Database, key: string, token: string, now: Date): Promise<void> {
  await db
    .knex('reminder_log')
    .where({ id: key, claim_token: token })
    .update({ status: 'sent', sent_at: now.toISOString(), claim_token: null });
}

/** Records a failed send: it is retried after the lease, or given up after MAX_ATTEMPTS. */
export async function markFailed(
  db: Database,
  key: string,
  token: string,
  now: Date,
  error: string,
): Promise<void> {
  const row = (await db.knex('reminder_log').where({ id: key, claim_token: token }).first()) as
    LogRow | undefined;
  if (!row) return;
  await db
    .knex('reminder_log')
    .where({ id: key, claim_token: token })
    .update({
      status: row.attempts >= MAX_ATTEMPTS ? 'failed' : 'claimed',
      claim_token: null,
      claimed_at: now.toISOString(),
      last_error: error.slice(0, 300),
    });
}

/** Forgets log rows of events older than `keepDays`; returns how many. */
export async function purgeReminderLog(
  db: Database,
  today: string,
  keepDays = 120,
): Promise<number> {
  const cutoff = new Date(Date.parse(`${today}T00:00:00Z`) - keepDays * 86_400_000)
    .toISOString()
    .slice(0, 10);
  return Number(await db.knex('reminder_log').where('event_date', '<', cutoff).delete());
}
