import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Database } from '../../../../core/store/connection.ts';
import { migrationSource } from '../../../../core/store/migrations/index.ts';
import { openTestDatabase } from '../../../helpers/testCore.ts';

const BEFORE = '202611300003_assistant';

/** Applies migrations one at a time up to and including `name`. */
async function migrateTo(db: Database, name: string): Promise<void> {
  for (;;) {
    const [, applied] = (await db.knex.migrate.up({ migrationSource })) as [number, string[]];
    if (applied.length === 0 || applied.includes(name)) return;
  }
}

const member = (id: string, createdAt: string, telegram: string | null, slack: string | null) => ({
  id,
  household_id: 'hh_1',
  name: id,
  role: 'member',
  language: 'en',
  telegram_user_id: telegram,
  slack_user_id: slack,
  reminder_offsets: '[3,1]',
  reminder_time: '09:00',
  created_at: createdAt,
});

describe('migration 202612010002_member_identities', () => {
  let db: Database;
  beforeEach(async () => {
    db = await openTestDatabase({ migrated: false });
    await migrateTo(db, BEFORE);
    await db.knex('households').insert({
      id: 'hh_1',
      name: 'Home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      locale: 'en',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
    });
    await db
      .knex('members')
      .insert([
        member('mem_ana', '2026-01-01T00:00:00.000Z', '1001', 'U0ANA'),
        member('mem_luis', '2026-01-02T00:00:00.000Z', null, 'U0LUIS'),
        member('mem_marta', '2026-01-03T00:00:00.000Z', null, null),
        member('mem_copy', '2026-01-04T00:00:00.000Z', '1001', null),
      ]);
  });
  afterEach(async () => db.close());

  it('moves telegram_user_id and slack_user_id into member_identities and drops the columns', async () => {
    await db.knex.migrate.latest({ migrationSource });
    const rows = await db
      .knex('member_identities')
      .orderBy([{ column: 'member_id' }, { column: 'position' }])
      .select('id', 'member_id', 'platform', 'external_id', 'position', 'created_at');
    expect(rows).toEqual([
      {
        id: 'telegram:1001',
        member_id: 'mem_ana',
        platform: 'telegram',
        external_id: '1001',
        position: 0,
        created_at: '2026-01-01T00:00:00.000Z',
      },
      {
        id: 'slack:U0ANA',
        member_id: 'mem_ana',
        platform: 'slack',
        external_id: 'U0ANA',
        position: 1,
        created_at: '2026-01-01T00:00:00.000Z',
      },
      {
        id: 'slack:U0LUIS',
        member_id: 'mem_luis',
        platform: 'slack',
        external_id: 'U0LUIS',
        position: 0,
        created_at: '2026-01-02T00:00:00.000Z',
      },
    ]);
    const columns = Object.keys(await db.knex('members').columnInfo());
    expect(columns).not.toContain('telegram_user_id');
    expect(columns).not.toContain('slack_user_id');
    // The other members and their rows are untouched.
    expect(await db.knex('members').orderBy('id').pluck('id')).toEqual([
      'mem_ana',
      'mem_copy',
      'mem_luis',
      'mem_marta',
    ]);
  });

  it('refuses a second member for one account from then on', async () => {
    await db.knex.migrate.latest({ migrationSource });
    await expect(
      db.knex('member_identities').insert({
        id: 'telegram-again',
        member_id: 'mem_marta',
        platform: 'telegram',
        external_id: '1001',
        position: 0,
        created_at: '2026-02-01T00:00:00.000Z',
      }),
    ).rejects.toThrow();
  });

  it('rolls back to the columns with the same data', async () => {
    await db.knex.migrate.latest({ migrationSource });
    // Back to just before this migration, undoing the later ones first (one at a time, newest first).
    while ((await db.knex.migrate.currentVersion({ migrationSource })) !== BEFORE.slice(0, 12))
      await db.knex.migrate.down({ migrationSource });
    const rows = await db
      .knex('members')
      .orderBy('id')
      .select('id', 'telegram_user_id', 'slack_user_id');
    expect(rows).toEqual([
      { id: 'mem_ana', telegram_user_id: '1001', slack_user_id: 'U0ANA' },
      { id: 'mem_copy', telegram_user_id: null, slack_user_id: null },
      { id: 'mem_luis', telegram_user_id: null, slack_user_id: 'U0LUIS' },
      { id: 'mem_marta', telegram_user_id: null, slack_user_id: null },
    ]);
    expect(await db.knex.schema.hasTable('member_identities')).toBe(false);
  });
});
