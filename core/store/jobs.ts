import { randomBytes } from 'node:crypto';

import type { Database } from './connection.ts';

export interface JobSchedule {
  /** Run at most once in this time, across every process on the database. */
  everyMs: number;
  /** A run that has not finished after this long is taken to have died; another may run it. */
  leaseMs: number;
}

/**
 * Runs `work` when job `name` is due and this process wins the claim (the `job_runs` row, see its
 * migration); resolves `true` when it ran, `false` when it was not due or another process has it.
 * A run that throws releases the claim without counting as run (it is tried again at the next
 * chance) and rethrows. Works alike on SQLite and PostgreSQL: the claim is one conditional UPDATE.
 */
export async function runClaimedJob(
  db: Database,
  name: string,
  now: Date,
  schedule: JobSchedule,
  work: () => Promise<void>,
): Promise<boolean> {
  const token = randomBytes(12).toString('hex');
  const nowIso = now.toISOString();
  const dueBefore = new Date(now.getTime() - schedule.everyMs).toISOString();
  await db
    .knex('job_runs')
    .insert({ name, lease_token: null, leased_until: null, last_run_at: null })
    .onConflict('name')
    .ignore();
  const claimed = await db
    .knex('job_runs')
    .where({ name })
    .andWhere((q) => q.whereNull('leased_until').orWhere('leased_until', '<', nowIso))
    .andWhere((q) => q.whereNull('last_run_at').orWhere('last_run_at', '<=', dueBefore))
    .update({
      lease_token: token,
      leased_until: new Date(now.getTime() + schedule.leaseMs).toISOString(),
    });
  if (Number(claimed) !== 1) return false;
  try {
    await work();
  } catch (error) {
    await db
      .knex('job_runs')
      .where({ name, lease_token: token })
      .update({ lease_token: null, leased_until: null });
    throw error;
  }
  await db
    .knex('job_runs')
    .where({ name, lease_token: token })
    .update({ lease_token: null, leased_until: null, last_run_at: nowIso });
  return true;
}
