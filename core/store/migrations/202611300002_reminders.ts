import type { Knex } from 'knex';

/**
 * Chat and reminder bookkeeping. Neither table is tracked for audit/undo: they record what a
 * process did (sent a reminder, linked a chat), not a change to the household's data.
 */
export async function up(knex: Knex): Promise<void> {
  /**
   * One row per reminder occurrence, claimed before it is sent so each is sent once even with two
   * processes: the id is the reminder's key (kind, subject, event date, offset, member).
   */
  await knex.schema.createTable('reminder_log', (t) => {
    t.string('id', 200).primary();
    t.string('household_id', 40).notNullable();
    t.string('member_id', 40).notNullable();
    t.string('kind', 20).notNullable();
    t.string('subject_id', 40).notNullable();
    t.string('event_date', 10).notNullable();
    t.integer('offset_days').notNullable();
    t.string('fire_at', 32).notNullable();
    /** `claimed` (being sent), `sent`, `superseded` (a later offset was sent instead), `failed` (gave up). */
    t.string('status', 12).notNullable();
    /** A random token of the claim; the process holding it sends. Cleared when a send fails. */
    t.string('claim_token', 40);
    t.string('claimed_at', 32);
    t.integer('attempts').notNullable();
    t.string('last_error', 300);
    t.string('sent_at', 32);
    t.string('created_at', 32).notNullable();
    t.index(['household_id', 'event_date']);
    t.index(['status', 'claimed_at']);
  });

  /** A group chat linked to a household: commands there act for the member who sends them. */
  await knex.schema.createTable('chat_links', (t) => {
    t.string('id', 80).primary();
    t.string('channel', 12).notNullable();
    t.string('chat_id', 64).notNullable();
    t.string('household_id', 40).notNullable();
    t.string('linked_by', 40).notNullable();
    t.string('title', 200);
    t.string('created_at', 32).notNullable();
    t.index(['household_id']);
  });

  /**
   * Platform updates already handled (webhooks are re-delivered when a call is slow or fails), so
   * a re-delivered update is not handled twice. Kept for a day.
   */
  await knex.schema.createTable('processed_updates', (t) => {
    t.string('id', 80).primary();
    t.string('created_at', 32).notNullable();
    t.index(['created_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('processed_updates');
  await knex.schema.dropTableIfExists('chat_links');
  await knex.schema.dropTableIfExists('reminder_log');
}
