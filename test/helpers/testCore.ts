import { randomBytes } from 'node:crypto';

import knex from 'knex';

import { type Actor, memberActor, newcomerActor } from '../../core/kernel/actor.ts';
import { Core } from '../../core/kernel/core.ts';
import { sequentialIds } from '../../core/kernel/ids.ts';
import { catalog } from '../../core/ops/catalog.ts';
import { type Database, migrate, openDatabase } from '../../core/store/connection.ts';

/** Where the store suite runs: SQLite in memory, or PostgreSQL when EXHALE_TEST_DATABASE_URL is set. */
export const TEST_DIALECT = process.env.EXHALE_TEST_DATABASE_URL ? 'postgres' : 'sqlite';

/** The fixed "now" of tests: Monday 2026-03-02 10:00 UTC. */
export const TEST_NOW = new Date('2026-03-02T10:00:00.000Z');

/**
 * A fresh, migrated database: an in-memory SQLite file, or a schema of its own on the test
 * PostgreSQL server (dropped by `close`). `migrated: false` leaves it empty (migration tests).
 */
export async function openTestDatabase(options: { migrated?: boolean } = {}): Promise<Database> {
  const url = process.env.EXHALE_TEST_DATABASE_URL;
  if (!url) {
    const db = openDatabase({ sqliteFile: ':memory:' });
    if (options.migrated !== false) await migrate(db);
    return db;
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: url });
  await admin.raw(`create schema ${schema}`);
  await admin.destroy();
  const k = knex({ client: 'pg', connection: url, searchPath: [schema], pool: { min: 0, max: 4 } });
  const db: Database = {
    knex: k,
    dialect: 'postgres',
    close: async () => {
      await k.raw(`drop schema ${schema} cascade`);
      await k.destroy();
    },
  };
  if (options.migrated !== false) await migrate(db);
  return db;
}

export interface TestHousehold {
  core: Core<typeof catalog>;
  db: Database;
  ids: ReturnType<typeof sequentialIds>;
  clock: { now: Date };
  householdId: string;
  owner: Actor;
  ownerId: string;
  close(): Promise<void>;
  /** Adds a member through an invite and returns them acting in person. */
  addMember(name: string, language?: 'en' | 'es'): Promise<Actor>;
}

/** A core over a fresh database with one household (EUR, Europe/Madrid) and its owner Ana. */
export async function createTestHousehold(
  options: { currency?: string; timeZone?: string } = {},
): Promise<TestHousehold> {
  const db = await openTestDatabase();
  const ids = sequentialIds();
  const clock = { now: new Date(TEST_NOW) };
  const core = new Core({ db, catalog, clock: () => new Date(clock.now), newId: ids.next });
  const created = await core.invoke('create_household', newcomerActor('cli', 'en'), {
    name: 'Test home',
    currency: options.currency ?? 'EUR',
    time_zone: options.timeZone ?? 'Europe/Madrid',
    language: 'en',
    owner_name: 'Ana',
  });
  const { household, member } = created.output;
  const owner = memberActor(
    { id: member.id, household_id: household.id, role: 'owner', language: 'en' },
    'cli',
  );
  return {
    core,
    db,
    ids,
    clock,
    householdId: household.id,
    owner,
    ownerId: member.id,
    close: () => db.close(),
    async addMember(name, language = 'en') {
      const invite = await core.invoke('create_invite', owner, {});
      const joined = await core.invoke('join_household', newcomerActor('cli', language), {
        code: invite.output.code,
        name,
        language,
      });
      const m = joined.output.member;
      return memberActor({ id: m.id, household_id: household.id, role: 'member', language }, 'cli');
    },
  };
}
