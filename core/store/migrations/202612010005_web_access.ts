import type { Knex } from 'knex';

/**
 * Web access (issue 9): how a person gets into the Mini App outside Telegram, and the calendar
 * feed a member subscribes to. No secret is stored: each table keeps the SHA-256 of its code or
 * token, so a copy of the database lets no one in.
 *
 * - `one_time_codes`: short-lived codes of a purpose (`web_sign_in` now, `connect` for OAuth),
 *   issued by an op through `ctx.tx` (tracked: audited, undone with the op) and redeemed once by
 *   a conditional update (`used_at` set only while null and unexpired), so two processes
 *   redeeming the same code at once let one in.
 * - `web_sessions`: a browser's session cookie, started by redeeming a sign-in code (bookkeeping
 *   of the sign-in, like `token_uses`), ended through `end_web_session` (tracked).
 * - `calendar_feeds`: a member's iCal feed token, created and revoked through ops (tracked).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('one_time_codes', (t) => {
    t.string('id', 40).primary();
    t.string('purpose', 32).notNullable();
    t.string('code_hash', 64).notNullable().unique();
    t.string('household_id', 40).notNullable();
    t.string('member_id', 40).notNullable();
    t.string('created_at', 32).notNullable();
    t.string('expires_at', 32).notNullable();
    t.string('used_at', 32);
    t.index(['member_id']);
  });
  await knex.schema.createTable('web_sessions', (t) => {
    t.string('id', 40).primary();
    t.string('token_hash', 64).notNullable().unique();
    t.string('household_id', 40).notNullable();
    t.string('member_id', 40).notNullable();
    t.string('created_at', 32).notNullable();
    t.string('last_used_at', 32).notNullable();
    t.string('expires_at', 32).notNullable();
    t.string('ended_at', 32);
    t.string('user_agent', 200);
    t.index(['member_id']);
  });
  await knex.schema.createTable('calendar_feeds', (t) => {
    t.string('id', 40).primary();
    t.string('token_hash', 64).notNullable().unique();
    t.string('household_id', 40).notNullable();
    t.string('member_id', 40).notNullable();
    t.string('created_at', 32).notNullable();
    t.string('revoked_at', 32);
    t.index(['member_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTableIfExists('calendar_feeds');
  await knex.schema.dropTableIfExists('web_sessions');
  await knex.schema.dropTableIfExists('one_time_codes');
}
