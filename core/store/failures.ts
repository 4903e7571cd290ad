/**
 * What a database driver's error means for the transaction that met it, by the codes the drivers
 * give (`pg`: SQLSTATE in `code`; `sqlite3`: `SQLITE_*` in `code`):
 *
 * - `conflict`: PostgreSQL gave up on this transaction because of another one running at the same
 *   moment (serialization failure 40001, deadlock 40P01). Running it again is the fix.
 * - `duplicate`: a unique index refused a row (PostgreSQL 23505). When two
 *   transactions create the same new name (a category, a tag) at once, the second meets the
 *   first's row this way; run again, it finds that row and uses it.
 * - `busy`: SQLite's write lock stayed with another connection (a second process) for longer than
 *   `busy_timeout`. It has already waited; another attempt now would wait again.
 * - `null`: anything else (a bug, a lost connection), left as it is.
 */
export type StoreFailure = 'conflict' | 'duplicate' | 'busy';

export function storeFailure(error: unknown): StoreFailure | null {
  if (typeof error !== 'object' || error === null || !('code' in error)) return null;
  switch (error.code) {
    case '40001':
    case '40P01':
      return 'conflict';
    case '23505':
      return 'duplicate';
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return 'busy';
    default:
      return null;
  }
}

/**
 * Whether a database error is a unique or primary key violation (PostgreSQL 23505, SQLite
 * SQLITE_CONSTRAINT on UNIQUE or PRIMARY KEY): a concurrent writer got there first.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (storeFailure(error) === 'duplicate') return true;
  if (typeof error !== 'object' || error === null || !('code' in error)) return false;
  const message = error instanceof Error ? error.message : '';
  return error.code === 'SQLITE_CONSTRAINT' && /UNIQUE|PRIMARY KEY/.test(message);
}
