import { type Config, ConfigError } from './config.ts';
import {
  catalog,
  Core,
  type Database,
  type EventBus,
  InMemoryEventBus,
  migrate,
  openDatabase,
  PostgresEventBus,
  SqliteEventBus,
} from '../core/index.ts';

export type AppCore = Core<typeof catalog>;

export interface Runtime {
  config: Config;
  db: Database;
  core: AppCore;
  /** The migrations this opening applied (none when the database was up to date). */
  migrated: string[];
  close(): Promise<void>;
}

/** Opens the configured database, applies pending migrations and builds the core over the catalog. */
export async function openRuntime(config: Config): Promise<Runtime> {
  let db: Database;
  let migrated: string[];
  try {
    db = openDatabase({ url: config.EXHALE_DATABASE_URL, sqliteFile: config.sqliteFile });
    migrated = await migrate(db);
  } catch (error) {
    throw databaseError(error, config);
  }
  const bus = await openBus(db, config);
  const core = new Core({ db, catalog, bus });
  return {
    config,
    db,
    core,
    migrated,
    close: async () => {
      if (bus instanceof PostgresEventBus || bus instanceof SqliteEventBus) await bus.close();
      await db.close();
    },
  };
}

/**
 * The change-event bus, crossing every process on the database, so a change made by one (the CLI,
 * `exhale chat`, an agent over stdio) reaches the others' open screens, notices and MCP
 * notifications: on PostgreSQL by LISTEN/NOTIFY, on a SQLite file by watching its commits.
 */
async function openBus(db: Database, config: Config): Promise<EventBus> {
  const url = config.EXHALE_DATABASE_URL;
  if (db.dialect === 'sqlite') {
    const bus = new SqliteEventBus({ db });
    try {
      await bus.start();
    } catch (error) {
      await db.close();
      throw databaseError(error, config);
    }
    return bus;
  }
  if (!url) return new InMemoryEventBus();
  // The pg driver is loaded only for PostgreSQL (knex loads its own the same way): a SQLite
  // server never pays for it at start.
  const { default: pg } = await import('pg');
  const bus = new PostgresEventBus({ db, connect: () => new pg.Client({ connectionString: url }) });
  try {
    await bus.start();
  } catch (error) {
    await db.close();
    throw databaseError(error, config);
  }
  return bus;
}

/** Where the data lives, for messages: the SQLite file or the PostgreSQL server (without password). */
export function describeDatabase(config: Config): string {
  if (!config.EXHALE_DATABASE_URL) return `SQLite file ${config.sqliteFile}`;
  const url = new URL(config.EXHALE_DATABASE_URL);
  return `PostgreSQL at ${url.hostname}:${url.port || 5432}${url.pathname}`;
}

/** A database that cannot be opened, as a sentence naming the variable to check. */
function databaseError(error: unknown, config: Config): Error {
  const detail = error instanceof Error ? error.message : String(error);
  if (config.EXHALE_DATABASE_URL) {
    return new ConfigError(
      `Cannot use the PostgreSQL database of EXHALE_DATABASE_URL (${describeDatabase(config)}): ${detail}`,
    );
  }
  return new ConfigError(
    `Cannot open the SQLite file in EXHALE_DATA_DIR (${config.sqliteFile}): ${detail}`,
  );
}
