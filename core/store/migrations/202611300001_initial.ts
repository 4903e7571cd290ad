import type { Knex } from 'knex';

/**
 * The whole first schema. Conventions that keep SQLite and PostgreSQL rows identical (undo compares
 * rows exactly): ids are text, money is integer minor units, booleans are integers 0/1, dates are
 * `YYYY-MM-DD` text, instants are ISO text, JSON is text.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('households', (t) => {
    t.string('id', 40).primary();
    t.string('name', 120).notNullable();
    t.string('currency', 3).notNullable();
    t.string('time_zone', 64).notNullable();
    t.string('locale', 8).notNullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
  });

  await knex.schema.createTable('members', (t) => {
    t.string('id', 40).primary();
    t.string('household_id', 40).notNullable().references('households.id');
    t.string('name', 120).notNullable();
    t.string('role', 10).notNullable();
    t.string('language', 8).notNullable();
    t.string('telegram_user_id', 32);
    t.string('slack_user_id', 64);
    t.text('reminder_offsets').notNullable();
    t.string('reminder_time', 5).notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['household_id']);
    t.index(['telegram_user_id']);
  });

  await knex.schema.createTable('invites', (t) => {
    t.string('id', 40).primary();
    t.string('household_id', 40).notNullable().references('households.id');
    t.string('code', 40).notNullable().unique();
    t.string('role', 10).notNullable();
    t.string('created_by', 40).notNullable();
    t.string('expires_at', 32).notNullable();
    t.string('used_by', 40);
    t.string('used_at', 32);
    t.string('created_at', 32).notNullable();
  });

  for (const table of ['categories', 'payment_methods', 'tags'] as const) {
    await knex.schema.createTable(table, (t) => {
      t.string('id', 40).primary();
      t.string('household_id', 40).notNullable().references('households.id');
      t.string('name', 80).notNullable();
      if (table === 'categories') t.string('color', 7);
      if (table === 'payment_methods') {
        t.string('kind', 20).notNullable();
        t.string('last4', 4);
      }
      t.string('created_at', 32).notNullable();
      t.unique(['household_id', 'name']);
    });
  }

  await knex.schema.createTable('subscriptions', (t) => {
    t.string('id', 40).primary();
    t.string('household_id', 40).notNullable().references('households.id');
    t.string('member_id', 40).notNullable();
    t.string('name', 120).notNullable();
    t.string('vendor', 120);
    t.integer('amount_minor').notNullable();
    t.string('currency', 3).notNullable();
    t.string('cycle_unit', 5).notNullable();
    t.integer('cycle_every').notNullable();
    t.string('first_charge_date', 10).notNullable();
    t.string('status', 10).notNullable();
    t.string('trial_ends_on', 10);
    t.string('paused_on', 10);
    t.string('cancelled_on', 10);
    t.string('contract_ends_on', 10);
    t.integer('notice_days');
    t.string('category_id', 40);
    t.string('payment_method_id', 40);
    t.text('notes');
    t.string('url', 2048);
    t.string('cancel_url', 2048);
    t.integer('private').notNullable();
    t.string('created_at', 32).notNullable();
    t.string('updated_at', 32).notNullable();
    t.index(['household_id', 'status']);
  });

  await knex.schema.createTable('subscription_tags', (t) => {
    t.string('id', 90).primary();
    t.string('household_id', 40).notNullable();
    t.string('subscription_id', 40).notNullable();
    t.string('tag_id', 40).notNullable();
    t.unique(['subscription_id', 'tag_id']);
    t.index(['tag_id']);
  });

  await knex.schema.createTable('subscription_shares', (t) => {
    t.string('id', 90).primary();
    t.string('household_id', 40).notNullable();
    t.string('subscription_id', 40).notNullable();
    t.string('member_id', 40).notNullable();
    t.integer('share_bp').notNullable();
    t.unique(['subscription_id', 'member_id']);
  });

  await knex.schema.createTable('charges', (t) => {
    t.string('id', 40).primary();
    t.string('household_id', 40).notNullable();
    t.string('subscription_id', 40).notNullable();
    t.string('due_date', 10).notNullable();
    t.string('status', 10).notNullable();
    t.integer('amount_minor');
    t.string('currency', 3).notNullable();
    t.string('note', 500);
    t.string('recorded_at', 32).notNullable();
    t.unique(['subscription_id', 'due_date']);
    t.index(['household_id', 'due_date']);
  });

  await knex.schema.createTable('price_changes', (t) => {
    t.string('id', 40).primary();
    t.string('household_id', 40).notNullable();
    t.string('subscription_id', 40).notNullable();
    t.string('effective_date', 10).notNullable();
    t.integer('old_amount_minor').notNullable();
    t.integer('new_amount_minor').notNullable();
    t.string('currency', 3).notNullable();
    t.string('created_at', 32).notNullable();
    t.index(['subscription_id', 'effective_date']);
  });

  await knex.schema.createTable('fx_rates', (t) => {
    t.string('id', 60).primary();
    /** Empty string for the ECB's published rates; a household id for a rate its owner set. */
    t.string('household_id', 40).notNullable();
    t.string('date', 10).notNullable();
    t.string('currency', 3).notNullable();
    /** Units of `currency` per euro, as the ECB publishes them. */
    t.double('per_eur').notNullable();
    t.string('source', 10).notNullable();
    t.unique(['household_id', 'currency', 'date']);
  });

  await knex.schema.createTable('tokens', (t) => {
    t.string('id', 40).primary();
    t.string('household_id', 40).notNullable();
    t.string('member_id', 40).notNullable();
    t.string('name', 80).notNullable();
    t.string('scope', 10).notNullable();
    t.string('hash', 64).notNullable().unique();
    t.string('prefix', 16).notNullable();
    t.string('created_at', 32).notNullable();
    t.string('revoked_at', 32);
  });

  /** Last use of a token is bookkeeping, not a change a person makes: kept apart from `tokens` so it is not audited. */
  await knex.schema.createTable('token_uses', (t) => {
    t.string('token_id', 40).primary();
    t.string('last_used_at', 32).notNullable();
  });

  await knex.schema.createTable('audit_entries', (t) => {
    t.increments('seq').primary();
    t.string('id', 40).notNullable().unique();
    t.string('household_id', 40).notNullable();
    t.string('member_id', 40);
    t.string('actor_kind', 12).notNullable();
    t.string('channel', 12).notNullable();
    t.string('agent_name', 120);
    t.string('token_id', 40);
    t.string('op', 64).notNullable();
    t.text('input').notNullable();
    t.text('changes').notNullable();
    /** The line in English, for logs; people read summary_text rendered in their language. */
    t.string('summary', 300).notNullable();
    /** The line as a text (JSON `{ key, params, items }`, see core/i18n/activity.ts). */
    t.text('summary_text');
    /** The member whose private subscription this entry touched; others do not see the entry. */
    t.string('private_to', 40);
    t.string('undone_by', 40);
    /** JSON list of the audit entries this one acts on (what an undo undid). */
    t.text('links');
    t.string('created_at', 32).notNullable();
    t.index(['household_id', 'seq']);
  });

  /** Short-lived state (proposals, confirmations, conversation turns): rows with an expiry. */
  await knex.schema.createTable('flows', (t) => {
    t.string('id', 40).primary();
    t.string('household_id', 40);
    t.string('member_id', 40);
    t.string('kind', 20).notNullable();
    t.text('payload').notNullable();
    t.string('expires_at', 32).notNullable();
    t.string('used_at', 32);
    t.string('created_at', 32).notNullable();
    t.index(['kind', 'expires_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'flows',
    'audit_entries',
    'token_uses',
    'tokens',
    'fx_rates',
    'price_changes',
    'charges',
    'subscription_shares',
    'subscription_tags',
    'subscriptions',
    'tags',
    'payment_methods',
    'categories',
    'invites',
    'members',
    'households',
  ]) {
    await knex.schema.dropTableIfExists(table);
  }
}
