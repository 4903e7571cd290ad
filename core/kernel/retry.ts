import type { Knex } from 'knex';

import { OpError } from '../errors/index.ts';
import type { Database } from '../store/connection.ts';
import { storeFailure } from '../store/failures.ts';

/** How many times a write transaction runs at most before the call is refused as busy. */
const MAX_ATTEMPTS = 6;

/** The wait before attempt `n` (2, 3, …): doubling from about 4 ms, with jitter so racers spread. */
function backoffMs(attempt: number): number {
  const base = 4 * 2 ** (attempt - 2);
  return base / 2 + Math.random() * base;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `body` in a transaction of `db`, again (from the start, in a new transaction) when the
 * database refused it only because another transaction ran at the same moment: a PostgreSQL
 * serialization failure or deadlock, or a unique violation (two calls creating the same new name).
 * The body must be safe to run again: everything it writes is in the transaction, rolled back
 * with it. At most MAX_ATTEMPTS runs, with a short jittered wait between them.
 *
 * What still fails is never reported as an internal error when it is the database being busy:
 * conflicts that outlast the attempts and a SQLite write lock that outlasted `busy_timeout` are
 * `OpError('unavailable', 'errors.busy')`, a sentence asking to try again. A unique violation
 * that persists on every attempt is no race (it is a bug) and is rethrown as it is.
 */
export async function transactionWithRetry<T>(
  db: Database,
  body: (trx: Knex.Transaction) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await db.knex.transaction(body);
    } catch (error) {
      const failure = storeFailure(error);
      if (failure === null) throw error;
      if (failure === 'busy') throw new OpError('unavailable', 'errors.busy');
      if (attempt >= MAX_ATTEMPTS) {
        if (failure === 'duplicate') throw error;
        throw new OpError('unavailable', 'errors.busy');
      }
      await sleep(backoffMs(attempt + 1));
    }
  }
}
