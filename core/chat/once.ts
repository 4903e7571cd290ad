import type { Database } from '../store/connection.ts';

/**
 * Records that something was done (an update handled, a notice sent) and says whether this call
 * was the first: an insert on the primary key, so exactly one process wins. Rows live a day.
 */
export async function firstTime(db: Database, key: string, now: Date): Promise<boolean> {
  const inserted = (await db
    .knex('processed_updates')
    .insert({ id: key.slice(0, 80), created_at: now.toISOString() })
    .onConflict('id')
    .ignore()
    .returning('id')) as unknown[];
  return inserted.length === 1;
}

/** Forgets records older than a day; returns how many. */
export async function purgeFirstTimes(db: Database, now: Date): Promise<number> {
  return Number(
    await db
      .knex('processed_updates')
      .where('created_at', '<', new Date(now.getTime() - 86_400_000).toISOString())
      .delete(),
  );
}
