import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { openDatabase } from '../../../core/store/connection.ts';

describe('a SQLite file as Exhale opens it (core/store/connection.ts)', () => {
  it('is in WAL mode with synchronous=NORMAL, foreign keys on and a busy timeout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'exhale-pragmas-'));
    const db = openDatabase({ sqliteFile: join(dir, 'exhale.sqlite') });
    try {
      const pragma = async (name: string): Promise<unknown> => {
        const rows = (await db.knex.raw(`PRAGMA ${name}`)) as Array<Record<string, unknown>>;
        return Object.values(rows[0] ?? {})[0];
      };
      expect(await pragma('journal_mode')).toBe('wal');
      expect(await pragma('synchronous')).toBe(1); // NORMAL
      expect(await pragma('foreign_keys')).toBe(1);
      expect(await pragma('busy_timeout')).toBe(5000);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
