import type { Database } from '../../core/store/connection.ts';

/**
 * How many SQLite freshness checks (`PRAGMA data_version`) `db` sends while `work` runs: those of
 * the statement prepared on the writer (core/store/dataVersion.ts) and any sent through knex.
 */
export async function freshnessReads(db: Database, work: () => Promise<unknown>): Promise<number> {
  let throughKnex = 0;
  const listener = (q: { sql: string }) => {
    if (/data_version/i.test(q.sql)) throughKnex += 1;
  };
  const before = db.dataVersion?.reads ?? 0;
  db.knex.on('query', listener);
  try {
    await work();
  } finally {
    db.knex.off('query', listener);
  }
  return throughKnex + (db.dataVersion?.reads ?? 0) - before;
}
