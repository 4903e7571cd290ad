import type { Knex } from 'knex';

/**
 * Exhale as its own OAuth 2.1 authorization server for remote MCP agents.
 *
 * - `oauth_clients`: registered (RFC 7591) and document (Client ID Metadata Document) clients.
 *   Bookkeeping, not household data: not tracked; removed by the cleanup job when nobody connected
 *   within a week. A document client's row is its cached document (`cache_until`).
 * - `oauth_grants`: one person's consent to one client (a "connected app"). Household data,
 *   written only through ops (`connect_app`, `disconnect_app`, `remove_member`): audited, undoable.
 * - `oauth_codes`, `oauth_tokens`: authorization codes and access/refresh tokens, only as SHA-256
 *   hashes (secrets never go through the audit). A grant is the token family: reuse of a rotated
 *   refresh token, or a replayed code, revokes every token of the grant.
 * - `oauth_grant_uses`: last use per grant, throttled, like `token_uses`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oauth_clients', (t) => {
    t.string('client_id', 2048).primary();
    t.string('kind', 16).notNullable(); // registered | document
    t.string('client_name', 200);
    t.string('logo_uri', 2048);
    t.text('redirect_uris').notNullable(); // JSON array
    t.string('auth_method', 32).notNullable(); // none | client_secret_post | client_secret_basic
    t.string('secret_hash', 64);
    t.text('metadata').notNullable(); // JSON: what the client registered or its document said
    t.string('created_at', 32).notNullable();
    t.string('cache_until', 32);
    t.string('last_connected_at', 32);
  });
  await knex.schema.createTable('oauth_grants', (t) => {
    t.string('id', 40).primary();
    t.string('household_id', 40).notNullable();
    t.string('member_id', 40).notNullable();
    t.string('client_id', 2048).notNullable();
    t.string('client_name', 200).notNullable();
    t.string('scope', 16).notNullable();
    t.string('resource', 2048).notNullable();
    t.string('created_at', 32).notNullable();
    t.string('revoked_at', 32);
    t.index(['household_id', 'member_id']);
  });
  await knex.schema.createTable('oauth_codes', (t) => {
    t.string('hash', 64).primary();
    t.string('grant_id', 40).notNullable();
    t.string('client_id', 2048).notNullable();
    t.string('redirect_uri', 2048).notNullable();
    t.string('code_challenge', 128).notNullable();
    t.string('resource', 2048).notNullable();
    t.string('scope', 16).notNullable();
    t.string('expires_at', 32).notNullable();
    t.string('used_at', 32);
  });
  await knex.schema.createTable('oauth_tokens', (t) => {
    t.string('hash', 64).primary();
    t.string('kind', 8).notNullable(); // access | refresh
    t.string('grant_id', 40).notNullable();
    t.string('client_id', 2048).notNullable();
    t.string('scope', 16).notNullable();
    t.string('resource', 2048).notNullable();
    t.string('created_at', 32).notNullable();
    t.string('expires_at', 32).notNullable();
    t.string('used_at', 32); // a refresh token's rotation
    t.string('revoked_at', 32);
    t.index(['grant_id']);
  });
  await knex.schema.createTable('oauth_grant_uses', (t) => {
    t.string('grant_id', 40).primary();
    t.string('last_used_at', 32).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  for (const table of [
    'oauth_grant_uses',
    'oauth_tokens',
    'oauth_codes',
    'oauth_grants',
    'oauth_clients',
  ])
    await knex.schema.dropTable(table);
}
