import { mkdirSync } from 'node:fs';
import path from 'node:path';

import knex, { type Knex } from 'knex';

import { ImmediateSqliteClient } from './sqliteClient.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  knex: Knex;
  dialect: Dialect;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A `postgres://` URL; when absent, SQLite is used. */
  url?: string | undefined;
  /** The SQLite file, or `:memory:`. */
  sqliteFile?: string | undefined;
}

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
  const k = knex({
    client: ImmediateSqliteClient,
    connection: { filename },
    useNullAsDefault: true,
    // knex's default logger writes to stdout, which `exhale mcp` keeps for protocol messages only.
    log: {
      warn: (m: unknown) => console.error(String(m)),
      error: (m: unknown) => console.error(String(m)),
      deprecate: (m: unknown) => console.error(String(m)),
      debug: (m: unknown) => console.error(String(m)),
    },
    pool: {
      min: 1,
      max: 1,
      afterCreate: (
        conn: { run: (sql: string, cb: (err: Error | null) => void) => void },
        done: (err: Error | null, conn: unknown) => void,
      ) => {
        conn.run('PRAGMA foreign_keys = ON', (e1) => {
          if (e1) return done(e1, conn);
          conn.run('PRAGMA journal_mode = WAL', (e2) => {
            if (e2) return done(e2, conn);
            // In WAL, NORMAL syncs at checkpoints rather than at every commit: a commit stays
            // atomic and consistent, and a power loss (not a crash of the process) may lose the
            // last commits. It spares a durable fsync per button row and per reply.
            conn.run('PRAGMA busy_timeout = 5000', (e3) => {
              if (e3) return done(e3, conn);
              conn.run('PRAGMA synchronous = NORMAL', (e4) => done(e4, conn));
            });
          });
        });
      },
    },
  });
  return { knex: k, dialect: 'sqlite', close: () => k.destroy() };
}

export { migrate } from './migrate.ts';
