/**
 * Whether a database error is a unique or primary key violation (PostgreSQL 23505, SQLite
 * SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY): a concurrent writer got there first.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = 'code' in error ? error.code : undefined;
  if (code === '23505') return true;
  const message = error instanceof Error ? error.message : '';
  return code === 'SQLITE_CONSTRAINT' && /UNIQUE|PRIMARY KEY/.test(message);
}
