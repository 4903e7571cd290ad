import { mkdirSync } from 'node:fs';
import path from 'node:path';

import knex, { type Knex } from 'knex';

import { DataVersionProbe, type RawSqliteConnection } from './dataVersion.ts';
import { ImmediateSqliteClient } from './sqliteClient.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  /** The one writer (SQLite) or the pool (PostgreSQL): writes, and every read inside a write. */
  knex: Knex;
  /**
   * SQLite files only: a small pool of read-only connections beside the writer, for reads outside
   * a transaction (the kernel runs read ops on it), so heavy reads run in parallel instead of
   * queueing on the writer's one connection (node-sqlite3 runs one statement at a time per
   * connection). Each statement there starts its own WAL snapshot, so it sees every commit made
   * before it was sent, by this process or another. Absent on PostgreSQL (its pool already runs
   * reads in parallel) and for `:memory:` (a second connection would be another database).
   */
  reader?: Knex;
  /**
   * SQLite only: `PRAGMA data_version` on the writer's connection, prepared once (the read
   * cache's freshness check; core/store/dataVersion.ts).
   */
  dataVersion?: DataVersionProbe;
  dialect: Dialect;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A `postgres://` URL; when absent, SQLite is used. */
  url?: string | undefined;
  /** The SQLite file, or `:memory:`. */
  sqliteFile?: string | undefined;
  /** SQLite files: how many read-only connections `reader` may open (default 3; 0: none). */
  readers?: number | undefined;
}

/** The default size of a SQLite file's read pool: beside the writer, on a machine of 2–4 cores. */
const DEFAULT_READERS = 3;

/** node-sqlite3's connection, as knex's `afterCreate` hands it over. */
interface SqliteConnection extends RawSqliteConnection {
  run: (sql: string, cb: (err: Error | null) => void) => void;
}

/**
 * Runs `pragmas` one after another on a new connection, then `prepare` (if any), then hands it
 * to knex's pool.
 */
function withPragmas(pragmas: readonly string[], prepare?: DataVersionProbe) {
  return (conn: SqliteConnection, done: (err: Error | null, conn: unknown) => void): void => {
    const next = (i: number): void => {
      const sql = pragmas[i];
      if (sql !== undefined) return conn.run(sql, (err) => (err ? done(err, conn) : next(i + 1)));
      if (!prepare) return done(null, conn);
      prepare.attach(conn, (err) => done(err, conn));
    };
    next(0);
  };
}

/** knex's default logger writes to stdout, which `exhale mcp` keeps for protocol messages only. */
const stderrLog = {
  warn: (m: unknown) => console.error(String(m)),
  error: (m: unknown) => console.error(String(m)),
  deprecate: (m: unknown) => console.error(String(m)),
  debug: (m: unknown) => console.error(String(m)),
};

/** Opens the database named by the options (PostgreSQL for a URL, SQLite otherwise). */
export function openDatabase(options: DatabaseOptions): Database {
  if (options.url) {
    const k = knex({
      client: 'pg',
      connection: options.url,
      pool: { min: 0, max: 10 },
      // Failures reach the caller as rejected queries (and a sentence); the pool's own stack dumps would only add noise.
      log: {
        error: () => undefined,
        warn: (m: unknown) => {
          if (!String(m).includes('Acquire connection error')) console.warn(m);
        },
        deprecate: () => undefined,
        debug: () => undefined,
      },
    });
    return { knex: k, dialect: 'postgres', close: () => k.destroy() };
  }
  const filename = options.sqliteFile ?? ':memory:';
  if (filename !== ':memory:') mkdirSync(path.dirname(filename), { recursive: true });
  // Several processes may share the file (the CLI while the server runs): WAL lets readers read
  // while one writes, transactions take the write lock as they begin (ImmediateSqliteClient), and
  // a writer waits up to busy_timeout for its turn.
  const dataVersion = new DataVersionProbe();
  const k = knex({
    client: ImmediateSqliteClient,
    connection: { filename },
    useNullAsDefault: true,
    log: stderrLog,
    pool: {
      min: 1,
      max: 1,
      // In WAL, synchronous=NORMAL syncs at checkpoints rather than at every commit: a commit
      // stays atomic and consistent, and a power loss (not a crash of the process) may lose the
      // last commits. It spares a durable fsync per button row and per reply.
      afterCreate: withPragmas(
        [
          'PRAGMA foreign_keys = ON',
          'PRAGMA journal_mode = WAL',
          'PRAGMA busy_timeout = 5000',
          'PRAGMA synchronous = NORMAL',
        ],
        dataVersion,
      ),
    },
  });
  const readers = filename === ':memory:' ? 0 : (options.readers ?? DEFAULT_READERS);
  if (readers <= 0) return { knex: k, dataVersion, dialect: 'sqlite', close: () => k.destroy() };
  // Opened when first needed (min 0). `query_only` makes a write sent here by mistake fail loudly
  // instead of taking a second write path beside the writer's BEGIN IMMEDIATE. No transaction is
  // ever opened here, so each statement reads its own fresh WAL snapshot and holds it only while
  // it runs (checkpoints are never starved by a reader).
  const reader = knex({
    client: ImmediateSqliteClient,
    connection: { filename },
    useNullAsDefault: true,
    log: stderrLog,
    pool: {
      min: 0,
      max: readers,
      afterCreate: withPragmas([
        'PRAGMA query_only = ON',
        'PRAGMA busy_timeout = 5000',
        'PRAGMA foreign_keys = ON',
      ]),
    },
  });
  return {
    knex: k,
    reader,
    dataVersion,
    dialect: 'sqlite',
    close: async () => {
      await reader.destroy();
      await k.destroy();
    },
  };
}

export { migrate } from './migrate.ts';
