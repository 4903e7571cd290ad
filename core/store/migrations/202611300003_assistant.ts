import type { Knex } from 'knex';

/**
 * The built-in assistant's tables. Proposals live in `flows` (kind 'proposal'). Only the settings
 * are a household's data (tracked for audit and undo); the API key is kept apart, outside the audit;
 * the rest is bookkeeping with an expiry.
 */
export async function up(knex: Knex): Promise<void> {
  /**
   * A household's model settings, one row per household (id `as_<household id>`), tracked for audit
   * and undo. Environment variables override each field. The API key is not here: see below.
   */
  await knex.schema.createTable('assistant_settings', (t) => {
    t.string('id', 60).primary();
    t.string('household_id', 40).notNullable().unique();
    t.string('provider', 20);
    t.string('model', 200);
    t.string('base_url', 500);
    /** JSON: model name (or prefix) → { input, output } dollars per million tokens, as decimal strings. */
    t.text('prices');
    t.string('updated_at', 32).notNullable();
  });

  /**
   * The household's API key, apart from the settings so it never reaches an audit entry (whose
   * before and after images keep every tracked row) nor a dry run's changes. Not tracked: written
   * directly by update_assistant_settings, never returned by any op or endpoint, not undone.
   */
  await knex.schema.createTable('assistant_secrets', (t) => {
    t.string('household_id', 40).primary();
    t.text('api_key').notNullable();
    t.string('updated_at', 32).notNullable();
  });

  /** The last turns of a member's conversation with the assistant, text only, with an expiry. */
  await knex.schema.createTable('assistant_turns', (t) => {
    t.string('id', 40).primary();
    t.string('household_id', 40).notNullable();
    t.string('member_id', 40).notNullable();
    t.text('question').notNullable();
    t.text('answer').notNullable();
    t.string('created_at', 32).notNullable();
    t.string('expires_at', 32).notNullable();
    t.index(['member_id', 'created_at']);
    t.index(['expires_at']);
  });

  /** One row per question: who, where, which model, how much; never the words. */
  await knex.schema.createTable('assistant_usage', (t) => {
    t.string('id', 40).primary();
    t.string('household_id', 40).notNullable();
    t.string('member_id', 40).notNullable();
    t.string('channel', 12).notNullable();
    t.string('provider', 20).notNullable();
    t.string('model', 200).notNullable();
    t.integer('calls').notNullable();
    t.integer('input_tokens').notNullable();
    t.integer('output_tokens').notNullable();
    /** Estimated cost in millionths of a dollar; null when the model has no price. */
    t.integer('cost_micros');
    /** `answered`, `limit` (a limit stopped the loop), `refused` (by the model), `failed`. */
    t.string('outcome', 12).notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['household_id', 'created_at']);
  });

  /** The per-member pace (GCRA): the theoretical arrival time of the next message. */
  await knex.schema.createTable('assistant_rate', (t) => {
    t.string('id', 40).primary();
    t.string('household_id', 40).notNullable();
    t.string('tat', 32).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'assistant_rate',
    'assistant_usage',
    'assistant_turns',
    'assistant_secrets',
    'assistant_settings',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
