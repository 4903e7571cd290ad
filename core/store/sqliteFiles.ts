import sqlite3 from 'sqlite3';

import { MIGRATION_NAMES } from './migrations/index.ts';

/** One raw sqlite3 connection, outside knex's pool (a file copy must not share the server's). */
function open(file: string, mode: number): Promise<sqlite3.Database> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, mode, (error) => (error ? reject(error) : resolve(db)));
  });
}

function run(db: sqlite3.Database, sql: string, params: unknown[] = []): Promise<void> {
  return new Promise((resolve, reject) =>
    db.run(sql, params, (error) => (error ? reject(error) : resolve())),
  );
}

function all<T>(db: sqlite3.Database, sql: string): Promise<T[]> {
  return new Promise(
    (resolve, reject) =>
      db.all(sql, (error, rows) => (error ? reject(error) : resolve(rows as T[]))), // rows of the query just written
  );
}

function close(db: sqlite3.Database): Promise<void> {
  return new Promise((resolve) => db.close(() => resolve()));
}

/**
 * Writes a consistent copy of the SQLite database `file` to `target` with `VACUUM INTO`, which
 * reads inside one transaction: safe while the server (or anyone) writes, whose writes wait at
 * most `busy_timeout` or are simply not in the copy. `target` must not exist.
 */
export async function backupSqlite(file: string, target: string): Promise<void> {
  const db = await open(file, sqlite3.OPEN_READONLY);
  try {
    await run(db, 'PRAGMA busy_timeout = 5000');
    await run(db, 'VACUUM INTO ?', [target]);
  } finally {
    await close(db);
  }
}

/** What a file offered for restore is: an Exhale database this version can open, or why not. */
export type SqliteFileKind = 'exhale' | 'not_exhale' | 'newer';

/**
 * Reads `file` without changing it: an Exhale database has the migrations table and every
 * migration it records is one this version knows (else it was made by a newer Exhale).
 */
export async function inspectSqliteFile(file: string): Promise<SqliteFileKind> {
  let db: sqlite3.Database;
  try {
    db = await open(file, sqlite3.OPEN_READONLY);
  } catch {
    return 'not_exhale';
  }
  try {
    const tables = await all<{ name: string }>(
      db,
      "select name from sqlite_master where type = 'table' and name in ('knex_migrations', 'households')",
    );
    if (tables.length !== 2) return 'not_exhale';
    const applied = await all<{ name: string }>(db, 'select name from knex_migrations');
    const known = new Set(MIGRATION_NAMES);
    return applied.every((m) => known.has(m.name)) ? 'exhale' : 'newer';
  } catch {
    return 'not_exhale'; // "file is not a database", or tables that are not Exhale's
  } finally {
    await close(db);
  }
}

/**
 * True when another connection (a running `exhale`) has the database `file` open. In WAL mode a
 * connection may leave WAL only when it is the last one open, so a switch to rollback mode that
 * does not take (with no wait) means someone else is there; when it takes, the file is left in
 * rollback mode with no -wal or -shm beside it, ready to be replaced (the next opening puts WAL back).
 */
export async function sqliteInUse(file: string): Promise<boolean> {
  const db = await open(file, sqlite3.OPEN_READWRITE);
  try {
    await run(db, 'PRAGMA busy_timeout = 0');
    const [mode] = await all<{ journal_mode: string }>(db, 'PRAGMA journal_mode = DELETE');
    if (mode?.journal_mode !== 'delete') return true;
    // Rollback mode: an exclusive lock that fails at once is a reader or writer elsewhere.
    try {
      await run(db, 'BEGIN EXCLUSIVE');
      await run(db, 'ROLLBACK');
      return false;
    } catch {
      return true;
    }
  } catch {
    return true; // SQLITE_BUSY while switching: another connection holds a lock
  } finally {
    await close(db);
  }
}
