import type { Knex } from 'knex';

/**
 * Agent tokens may expire: `tokens.expires_at` (a UTC instant, null for a token that never
 * expires, as every token made before). A token past it is refused like a revoked one, and the
 * cleanup job removes it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tokens', (t) => {
    t.string('expires_at', 32);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('tokens', (t) => {
    t.dropColumn('expires_at');
  });
}
