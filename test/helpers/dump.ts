import type { Database } from '../../core/store/connection.ts';

/** Every table of the schema but knex's own bookkeeping. */
export async function tableNames(db: Database): Promise<string[]> {
  if (db.dialect === 'sqlite') {
    const rows = (await db.knex.raw(
      "select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'knex_%'",
    )) as Array<{ name: string }>;
    return rows.map((r) => r.name).sort();
  }
  const result = (await db.knex.raw(
    "select table_name from information_schema.tables where table_schema = current_schema() and table_name not like 'knex_%'",
  )) as { rows: Array<{ table_name: string }> };
  return result.rows.map((r) => r.table_name).sort();
}

/**
 * The whole database as one canonical string (tables by name, rows sorted, keys sorted): two dumps
 * are equal exactly when the stored data is.
 */
export async function dumpDatabase(
  db: Database,
  options: { except?: string[] } = {},
): Promise<string> {
  const out: Record<string, string[]> = {};
  for (const table of await tableNames(db)) {
    if (options.except?.includes(table)) continue;
    const rows = (await db.knex(table).select('*')) as Array<Record<string, unknown>>;
    out[table] = rows
      .map((row) =>
        JSON.stringify(
          Object.fromEntries(Object.entries(row).sort(([a], [b]) => a.localeCompare(b))),
        ),
      )
      .sort();
  }
  return JSON.stringify(out);
}
