import { localDate } from '../../../domain/dates.ts';
import { OpError } from '../../../errors/index.ts';
import type { OpContext } from '../../../kernel/op.ts';
import { household, nowIso } from '../../shared/context.ts';

/** Whether a database error is a unique index refusing a second row (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT). */
function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = 'code' in error ? error.code : undefined;
  const message = 'message' in error && typeof error.message === 'string' ? error.message : '';
  return code === '23505' || (code === 'SQLITE_CONSTRAINT' && /UNIQUE/i.test(message));
}

/**
 * Remembers an imported statement by its fingerprint, in a tracked row (so undo forgets it too).
 * The unique index on (household, fingerprint) makes a concurrent second import of the same
 * statement wait for the first and then fail here, as "imported before".
 */
export async function recordStatement(
  ctx: OpContext,
  row: { fileName: string; fingerprint: string; transactions: number; subscriptions: number },
): Promise<void> {
  const hh = household(ctx);
  const now = nowIso(ctx);
  try {
    await ctx.tx.insert('statement_imports', {
      id: ctx.newId('stmt'),
      household_id: hh.id,
      member_id: ctx.actor.memberId,
      fingerprint: row.fingerprint,
      file_name: row.fileName,
      transactions: row.transactions,
      subscriptions: row.subscriptions,
      created_at: now,
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw new OpError('conflict', 'errors.statements.imported_before', {
        date: localDate(new Date(now), hh.time_zone),
      });
    throw error;
  }
}
