import { randomBytes } from 'node:crypto';

import type { Knex } from 'knex';

/**
 * Secrets shared by every process on one database (`server_keys`, one row per purpose; the
 * migration writes the `buttons` key). Read once per connection and kept: a key never changes
 * while the database does not, so there is nothing to invalidate.
 */
const cached = new WeakMap<Knex, Map<string, Promise<Buffer>>>();

/** The key named `name`: the stored one, or (a database whose row went missing) one written now. */
export function serverKey(knex: Knex, name: string): Promise<Buffer> {
  let keys = cached.get(knex);
  if (!keys) cached.set(knex, (keys = new Map()));
  let key = keys.get(name);
  if (!key) {
    key = load(knex, name);
    // A failed read (the database was down) is tried again on the next call, not kept.
    key.catch(() => keys.delete(name));
    keys.set(name, key);
  }
  return key;
}

async function load(knex: Knex, name: string): Promise<Buffer> {
  const read = async (): Promise<string | undefined> =>
    ((await knex('server_keys').where({ name }).first('secret')) as { secret: string } | undefined)
      ?.secret;
  let secret = await read();
  if (secret === undefined) {
    // Two processes may get here at once: the first insert wins and both read the winner back.
    await knex('server_keys')
      .insert({
        name,
        secret: randomBytes(32).toString('hex'),
        created_at: new Date().toISOString(),
      })
      .onConflict('name')
      .ignore();
    secret = await read();
  }
  if (secret === undefined) throw new Error(`server key ${name} could not be stored`);
  return Buffer.from(secret, 'hex');
}
