import type { Knex } from 'knex';

/**
 * Statements imported into a household, one row per file, keyed by the SHA-256 of its bytes: the
 * same statement imported twice is recognised (the unique index also stops two imports of it
 * running at once). Tracked for audit and undo, so undoing an import forgets the statement too.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('statement_imports', (t) => {
    t.string('id', 40).primary();
    t.string('household_id', 40).notNullable();
    t.string('member_id', 40);
    t.string('fingerprint', 64).notNullable();
    t.string('file_name', 255).notNullable();
    t.integer('transactions').notNullable();
    t.integer('subscriptions').notNullable();
    t.string('created_at', 32).notNullable();
    t.unique(['household_id', 'fingerprint']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('statement_imports');
}
