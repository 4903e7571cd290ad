import type { Knex } from 'knex';

/**
 * OAuth limits shared by every process on one database.
 *
 * - `oauth_attempts`: connect-code attempts on the consent page, counted per key (a client, or an
 *   address; stored as the SHA-256 of the key, so a 2 KB client_id fits a primary key) in fixed
 *   windows. Bookkeeping, not household data: not tracked; rows past `expires_at` are removed by
 *   the OAuth cleanup job.
 * - `oauth_clients.logo_data`, `logo_for`, `logo_checked_at`: the client's logo, fetched by the
 *   server with the same guards as a client metadata document, kept as a `data:` URI (null when it
 *   was refused or failed) for the `logo_uri` named in `logo_for`, checked at `logo_checked_at`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oauth_attempts', (t) => {
    t.string('key_hash', 64).notNullable();
    t.string('window_start', 32).notNullable();
    t.integer('attempts').notNullable();
    t.string('expires_at', 32).notNullable();
    t.primary(['key_hash', 'window_start']);
    t.index(['expires_at']);
  });
  await knex.schema.alterTable('oauth_clients', (t) => {
    t.text('logo_data');
    t.string('logo_for', 2048);
    t.string('logo_checked_at', 32);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('oauth_clients', (t) => {
    t.dropColumn('logo_checked_at');
    t.dropColumn('logo_for');
    t.dropColumn('logo_data');
  });
  await knex.schema.dropTable('oauth_attempts');
}
