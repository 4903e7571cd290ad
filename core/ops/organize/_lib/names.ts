import { OpError } from '../../../errors/index.ts';
import type { OpContext } from '../../../kernel/op.ts';
import { household } from '../../shared/context.ts';
import type { NamedRow } from '../../../store/repos/rows.ts';

export type NamedTable = 'categories' | 'payment_methods' | 'tags';

const CONFLICT_KEYS: Record<NamedTable, string> = {
  categories: 'errors.organize.category_exists',
  payment_methods: 'errors.organize.payment_method_exists',
  tags: 'errors.organize.tag_exists',
};

/** The form two names are compared in: case-insensitive, the same on SQLite and PostgreSQL. */
export function nameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/**
 * Refuses a name another row of the household already has, ignoring case (`exceptId` is the row
 * being renamed). Checked here rather than left to the database: its unique index is
 * case-sensitive, and a constraint failure would abort a PostgreSQL transaction with no clear text.
 */
export async function assertNameFree(
  ctx: OpContext,
  table: NamedTable,
  name: string,
  exceptId?: string,
): Promise<void> {
  const rows = await ctx.tx
    .from<NamedRow>(table)
    .where({ household_id: household(ctx).id })
    .select('id', 'name');
  const wanted = nameKey(name);
  const clash = rows.find((r) => r.id !== exceptId && nameKey(r.name) === wanted);
  if (clash) throw new OpError('conflict', CONFLICT_KEYS[table], { name: clash.name });
}

/** Orders rows by name as a person reads a list (case-insensitive), ties by id. */
export function byName<T extends { id: string; name: string }>(a: T, b: T): number {
  const ka = nameKey(a.name);
  const kb = nameKey(b.name);
  if (ka !== kb) return ka < kb ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
