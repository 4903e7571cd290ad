import { randomBytes } from 'node:crypto';

import knex from 'knex';
import { describe, expect, it } from 'vitest';

import { isOpError } from '../../../core/errors/index.ts';
import { migrate, openDatabase } from '../../../core/store/connection.ts';

/**
 * `EXHALE_DATABASE_URL=postgres://…?options=-c%20search_path%3Dname` on a database where that
 * schema does not exist yet: migrating creates that schema (and only it), as a newcomer expects;
 * a search_path naming no schema is refused in a sentence saying how to name one.
 */
const URL_BASE = process.env.EXHALE_TEST_DATABASE_URL;

const withSearchPath = (base: string, path: string): string =>
  `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${path}`)}`;

describe('migrating a PostgreSQL schema named by the URL', () => {
  it.runIf(URL_BASE)(
    'creates the schema the search_path names when it does not exist, quoted, then migrates into it',
    async () => {
      const base = URL_BASE ?? '';
      // Mixed case and a dash: the name must be quoted to be created as written.
      const schema = `New-Tester_${randomBytes(4).toString('hex')}`;
      const admin = knex({ client: 'pg', connection: base });
      const db = openDatabase({ url: withSearchPath(base, `"${schema}"`) });
      try {
        const applied = await migrate(db);
        expect(applied.length).toBeGreaterThan(5);
        const tables = (await admin.raw(
          `select count(*)::int as n from information_schema.tables where table_schema = ? and table_name = 'subscriptions'`,
          [schema],
        )) as { rows: Array<{ n: number }> };
        expect(tables.rows[0]?.n).toBe(1);
        // A second process on the same URL finds it all there.
        const again = openDatabase({ url: withSearchPath(base, `"${schema}"`) });
        try {
          expect(await migrate(again)).toEqual([]);
        } finally {
          await again.close();
        }
      } finally {
        await db.close();
        await admin.raw(`drop schema if exists "${schema}" cascade`);
        await admin.destroy();
      }
    },
  );

  it.runIf(URL_BASE)(
    'two processes starting at once on a schema that does not exist both come up',
    async () => {
      const base = URL_BASE ?? '';
      const schema = `newcomer_${randomBytes(4).toString('hex')}`;
      const admin = knex({ client: 'pg', connection: base });
      const a = openDatabase({ url: withSearchPath(base, schema) });
      const b = openDatabase({ url: withSearchPath(base, schema) });
      try {
        const [x, y] = await Promise.all([migrate(a), migrate(b)]);
        expect([...x, ...y].length).toBeGreaterThan(5);
        expect(Math.min(x.length, y.length)).toBe(0);
      } finally {
        await Promise.all([a.close(), b.close()]);
        await admin.raw(`drop schema if exists "${schema}" cascade`);
        await admin.destroy();
      }
    },
  );

  it.runIf(URL_BASE)(
    'refuses a search_path that names no schema, saying how to name one',
    async () => {
      const db = openDatabase({ url: withSearchPath(URL_BASE ?? '', '"$user"') });
      try {
        const error = await migrate(db).then(
          () => null,
          (e: unknown) => e,
        );
        expect(isOpError(error) && error.key).toBe('errors.storeHints.no_schema');
        expect(error instanceof Error && error.message).toContain('search_path%3Dexhale');
      } finally {
        await db.close();
      }
    },
  );
});
