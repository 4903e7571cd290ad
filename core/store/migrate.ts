import type { Knex } from 'knex';

import { OpError } from '../errors/index.ts';
import { migrationSource } from './migrations/index.ts';

/** What migrating needs of a `Database` (connection.ts re-exports `migrate`, so no import back). */
export interface MigratableDatabase {
  knex: Knex;
  dialect: 'sqlite' | 'postgres';
}

/**
 * Runs every pending migration; returns the names it applied. Safe when several processes start
 * at once on a fresh database (behind a load balancer, or the CLI beside the server): one of them
 * migrates and the others wait for it, then find nothing left to apply.
 *
 * - PostgreSQL: a transaction-scoped advisory lock per schema serializes the migrators. Holding
 *   it, a knex lock row left by a process killed mid-migration is freed (nobody else can be
 *   migrating), so a crash never blocks the next start.
 * - SQLite: one connection per process and no advisory locks, so the races knex meets (its own
 *   tables created twice, a busy file, its lock row taken) are retried with a bounded back-off.
 */
export async function migrate(db: MigratableDatabase): Promise<string[]> {
  return db.dialect === 'postgres' ? migratePostgres(db.knex) : migrateSqlite(db.knex);
}

async function latest(k: Knex): Promise<string[]> {
  const [, applied] = (await k.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}

/**
 * The schema the URL's search_path names (`?options=-c search_path=name`), created when it does
 * not exist yet: that one schema only (the first name of the path, quoted), never another. A path
 * that names none ("$user" alone, for a user without a schema of that name) is refused in a
 * sentence saying how to name one; so is a schema the user may not create.
 */
async function ensureSchema(k: Knex): Promise<void> {
  const current = (await k.raw('select current_schema() as s')) as {
    rows: Array<{ s: string | null }>;
  };
  if (current.rows[0]?.s) return;
  const shown = (await k.raw('show search_path')) as { rows: Array<{ search_path: string }> };
  const path = shown.rows[0]?.search_path ?? '';
  const name = path
    .split(',')
    .map((p) =>
      p
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .replace(/""/g, '"'),
    )
    .find((p) => p !== '' && p !== '$user');
  if (!name) throw new OpError('invalid_input', 'errors.storeHints.no_schema', { path });
  try {
    await k.raw(`create schema if not exists "${name.replace(/"/g, '""')}"`);
  } catch (error) {
    // Two processes creating it at once: one of them wins (a unique violation for the other).
    const now = (await k.raw('select current_schema() as s')) as {
      rows: Array<{ s: string | null }>;
    };
    if (now.rows[0]?.s) return;
    throw new OpError('invalid_input', 'errors.storeHints.schema_not_created', {
      schema: name,
      reason: error instanceof Error ? error.message : String(error),
    });
  }
}

async function migratePostgres(k: Knex): Promise<string[]> {
  await ensureSchema(k);
  // The lock is held by this transaction's connection while knex migrates on others of the pool.
  return k.transaction(async (trx) => {
    await trx.raw(`select pg_advisory_xact_lock(hashtext(current_schema() || ':exhale-migrate'))`);
    await k.migrate.forceFreeMigrationsLock({ migrationSource });
    return latest(k);
  });
}

/** Longest a starting process waits for another one's migrations on SQLite. */
const SQLITE_WAIT_MS = 30_000;

/** A lock row with no migration applied for this long was left by a migrator that failed. */
const SQLITE_STALE_LOCK_MS = 5_000;

async function migrateSqlite(k: Knex): Promise<string[]> {
  const started = Date.now();
  let applied = -1;
  let progressAt = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      return await latest(k);
    } catch (error) {
      if (!isMigrationRace(error) || Date.now() - started > SQLITE_WAIT_MS) throw error;
      if (error instanceof Error && error.name === 'MigrationLocked') {
        // A migrator that lost its file to a busy neighbour can fail to free knex's lock row;
        // while migrations still get applied someone holds it, once none has for a while it is
        // stale and freed (migrations here take well under a second each).
        const now = await appliedCount(k);
        if (now !== applied) [applied, progressAt] = [now, Date.now()];
        else if (Date.now() - progressAt > SQLITE_STALE_LOCK_MS) {
          await k.migrate.forceFreeMigrationsLock({ migrationSource }).catch(() => undefined);
          progressAt = Date.now();
        }
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)));
    }
  }
}

async function appliedCount(k: Knex): Promise<number> {
  try {
    const [row] = (await k('knex_migrations').count({ n: '*' })) as Array<{ n: number | string }>;
    return Number(row?.n ?? 0);
  } catch {
    return -1;
  }
}

/** The failures another process migrating at the same moment causes, and nothing else. */
function isMigrationRace(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'MigrationLocked') return true;
  const message = error.message;
  return (
    message.includes('SQLITE_BUSY') ||
    (/knex_migrations(_lock)?`? already exists/.test(message) && message.includes('create table'))
  );
}
