import type { OpContext } from '../../../kernel/op.ts';
import type { Row } from '../../../store/tracked.ts';
import type { NamedTable } from './names.ts';

/**
 * Applies only the fields that differ from `row` (undefined = leave as is) and returns the row as
 * it is now. Changing nothing writes nothing, so a repeated update leaves no empty activity entry.
 */
export async function applyPatch(
  ctx: OpContext,
  table: NamedTable,
  row: Row,
  patch: Record<string, string | null | undefined>,
): Promise<Row> {
  const changed = Object.fromEntries(
    Object.entries(patch).filter(([key, value]) => value !== undefined && value !== row[key]),
  );
  if (Object.keys(changed).length === 0) return row;
  return ctx.tx.update(table, String(row.id), changed);
}
