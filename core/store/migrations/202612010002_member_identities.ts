import type { Knex } from 'knex';

/** The platforms of the columns this migration replaces; later platforms only ever had rows. */
const MOVED = [
  ['telegram', 'telegram_user_id'],
  ['slack', 'slack_user_id'],
] as const;

/**
 * Where a member is reached: one row per member and platform account, instead of a column per
 * platform on `members`. The id is `<platform>:<external id>`, so an account maps to one member on
 * every database (a second insert collides on the primary key) and undoing a removal that the
 * account has since been reused for is refused as a conflict, not a database error. `position`
 * orders a member's channels (lowest first), the order reminders try them in. Tracked for audit
 * and undo like `members`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('member_identities', (t) => {
    t.string('id', 120).primary();
    // No foreign key, like every other member_id: SQLite rebuilds `members` to alter it, and a
    // reference would make that rebuild fail. TrackedTx's REFERENCES keeps undo from orphaning rows.
    t.string('member_id', 40).notNullable();
    t.string('platform', 20).notNullable();
    t.string('external_id', 96).notNullable();
    t.integer('position').notNullable();
    t.string('created_at', 32).notNullable();
    t.unique(['platform', 'external_id']);
    t.index(['member_id']);
  });

  const members = (await knex('members')
    .select('id', 'telegram_user_id', 'slack_user_id', 'created_at')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])) as Array<{
    id: string;
    telegram_user_id: string | null;
    slack_user_id: string | null;
    created_at: string;
  }>;
  // Two members could share a platform id before (nothing forbade it); the account stays with the
  // one created first, which is the member it already resolved to (resolveSpeaker took the oldest).
  const taken = new Set<string>();
  for (const member of members) {
    let position = 0;
    for (const [platform, column] of MOVED) {
      const external = member[column];
      if (external === null || external === '') continue;
      const id = `${platform}:${external}`;
      if (taken.has(id)) continue;
      taken.add(id);
      await knex('member_identities').insert({
        id,
        member_id: member.id,
        platform,
        external_id: external,
        position,
        created_at: member.created_at,
      });
      position += 1;
    }
  }

  await knex.schema.alterTable('members', (t) => {
    t.dropIndex(['telegram_user_id']);
  });
  await knex.schema.alterTable('members', (t) => {
    t.dropColumn('telegram_user_id');
    t.dropColumn('slack_user_id');
  });
}

/** Puts the columns back with each member's first account per platform, then drops the table. */
export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('members', (t) => {
    t.string('telegram_user_id', 32);
    t.string('slack_user_id', 64);
    t.index(['telegram_user_id']);
  });
  const rows = (await knex('member_identities')
    .select('member_id', 'platform', 'external_id')
    .orderBy([{ column: 'member_id' }, { column: 'position' }])) as Array<{
    member_id: string;
    platform: string;
    external_id: string;
  }>;
  for (const [platform, column] of MOVED) {
    const done = new Set<string>();
    for (const row of rows) {
      if (row.platform !== platform || done.has(row.member_id)) continue;
      done.add(row.member_id);
      await knex('members')
        .where({ id: row.member_id })
        .update({ [column]: row.external_id });
    }
  }
  await knex.schema.dropTableIfExists('member_identities');
}
