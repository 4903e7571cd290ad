import { afterEach, describe, expect, it } from 'vitest';

import { migrate } from '../../../core/store/connection.ts';
import { MIGRATION_NAMES } from '../../../core/store/migrations/index.ts';
import { openSharedTestDatabase, type SharedTestDatabase } from '../../helpers/sharedDatabase.ts';

describe('migrations on a fresh database', () => {
  let shared: SharedTestDatabase | undefined;
  afterEach(async () => {
    await shared?.close();
    shared = undefined;
  });

  it('three processes starting at once on an empty database all come up, each migration applied once', async () => {
    shared = await openSharedTestDatabase({ migrated: false });
    const handles = [shared.open(), shared.open(), shared.open()];
    const applied = await Promise.all(handles.map((db) => migrate(db)));
    // Exactly one of them applied the migrations; the others found them applied.
    expect(applied.flat().sort()).toEqual([...MIGRATION_NAMES].sort());
    const rows = await handles[0]!.knex('knex_migrations').select('name');
    expect(rows.map((r: { name: string }) => r.name).sort()).toEqual([...MIGRATION_NAMES].sort());
    expect(await handles[1]!.knex.schema.hasTable('subscriptions')).toBe(true);
  });

  it('a process starting while another migrates waits for it instead of failing', async () => {
    shared = await openSharedTestDatabase({ migrated: false });
    const first = shared.open();
    const second = shared.open();
    const running = migrate(first);
    const [a, b] = await Promise.all([running, migrate(second)]);
    expect([...a, ...b].sort()).toEqual([...MIGRATION_NAMES].sort());
  });

  it.runIf(process.env.EXHALE_TEST_DATABASE_URL)(
    'on PostgreSQL, a migration lock left by a process killed mid-way does not block the next start',
    async () => {
      shared = await openSharedTestDatabase();
      const db = shared.open();
      // What a process killed between taking knex's lock and freeing it leaves behind.
      await db.knex('knex_migrations_lock').update({ is_locked: 1 });
      await expect(migrate(db)).resolves.toEqual([]);
      const [lock] = await db.knex('knex_migrations_lock').select('is_locked');
      expect(Number(lock?.is_locked)).toBe(0);
    },
  );
});
