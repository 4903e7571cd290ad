import type { Knex } from 'knex';

/**
 * `oauth_codes.sent_to`: the redirect URI an authorization code was sent to, also when the
 * authorization request named none (a client with one registered URI; `redirect_uri` is then '').
 * The token request may then repeat that URI or leave it out (RFC 6749 §4.1.3 asks for it only
 * when the authorization request named it). Null for codes issued before: those still want none.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('oauth_codes', (t) => {
    t.string('sent_to', 2048);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('oauth_codes', (t) => {
    t.dropColumn('sent_to');
  });
}
