import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

import knex from 'knex';

import { type Database, migrate, openDatabase } from '../../core/store/connection.ts';

/**
 * One migrated database that several connections (or processes) open at once, as two `exhale`
 * processes would: a SQLite *file* in a temp folder, or, when EXHALE_TEST_DATABASE_URL is set, a
 * PostgreSQL schema of its own. `open()` gives a new handle (its own pool); `close()` closes every
 * handle opened and drops the file or schema.
 */
export interface SharedTestDatabase {
  dialect: 'sqlite' | 'postgres';
  /** The SQLite file (SQLite only). */
  sqliteFile?: string;
  /** The PostgreSQL URL and the schema to search (PostgreSQL only). */
  url?: string;
  schema?: string;
  open(): Database;
  close(): Promise<void>;
}

export interface SharedTestDatabaseOptions {
  /** False leaves the database empty, as a fresh install finds it (default true: migrated). */
  migrated?: boolean;
}

export async function openSharedTestDatabase(
  options: SharedTestDatabaseOptions = {},
): Promise<SharedTestDatabase> {
  const migrated = options.migrated ?? true;
  const url = process.env.EXHALE_TEST_DATABASE_URL;
  const handles: Database[] = [];
  if (!url) {
    const dir = mkdtempSync(path.join(tmpdir(), 'exhale-shared-'));
    const sqliteFile = path.join(dir, 'exhale.sqlite');
    const open = () => {
      const db = openDatabase({ sqliteFile });
      handles.push(db);
      return db;
    };
    if (migrated) await migrate(open());
    return {
      dialect: 'sqlite',
      sqliteFile,
      open,
      async close() {
        for (const db of handles) await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = knex({ client: 'pg', connection: url });
  await admin.raw(`create schema ${schema}`);
  const open = () => {
    const k = knex({
      client: 'pg',
      connection: url,
      searchPath: [schema],
      pool: { min: 0, max: 4 },
    });
    const db: Database = { knex: k, dialect: 'postgres', close: () => k.destroy() };
    handles.push(db);
    return db;
  };
  if (migrated) await migrate(open());
  return {
    dialect: 'postgres',
    url,
    schema,
    open,
    async close() {
      for (const db of handles) await db.close();
      await admin.raw(`drop schema ${schema} cascade`);
      await admin.destroy();
    },
  };
}
