import { randomBytes } from 'node:crypto';

import type { Knex } from 'knex';

/**
 * Server keys: secrets this database's processes share, one row per purpose. The first is
 * `buttons`, the HMAC key that signs chat buttons carrying their action in the payload
 * (core/chat/signedButtons.ts): written here once, so every process on the database signs and
 * checks with the same key and no two can race to create different ones. Not tracked (server
 * bookkeeping, not household data); a backup carries it along, so restored buttons still verify.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('server_keys', (t) => {
    t.string('name', 32).primary();
    /** The key as hex. */
    t.string('secret', 128).notNullable();
    t.string('created_at', 32).notNullable();
  });
  await knex('server_keys').insert({
    name: 'buttons',
    secret: randomBytes(32).toString('hex'),
    created_at: new Date().toISOString(),
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('server_keys');
}
