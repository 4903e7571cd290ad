import type { Knex } from 'knex';

/**
 * Scheduled jobs that one process of many should run (the ECB refresh, the purge of expired rows):
 * one row per job, with when it last ran and the lease of the process running it now. A process
 * claims a job only when it is due and no lease is held, in one conditional update, so two
 * processes never run it at once or each on their own timer; a process that dies mid-way leaves a
 * lease that runs out, and the job to another. Not tracked (scheduler bookkeeping, not household data).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('job_runs', (t) => {
    t.string('name', 64).primary();
    t.string('lease_token', 32);
    t.string('leased_until', 32);
    t.string('last_run_at', 32);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('job_runs');
}
