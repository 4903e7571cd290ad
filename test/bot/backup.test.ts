import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import knex from 'knex';

import { openDatabase } from '../../core/store/connection.ts';
import { inspectSqliteFile } from '../../core/store/sqliteFiles.ts';
import { runExhale, startExhaleProcess } from '../helpers/exhaleProcess.ts';

/** A read-only look into a SQLite file, outside Exhale's code. */
async function query<T>(file: string, sql: string): Promise<T[]> {
  const k = knex({ client: 'sqlite3', connection: { filename: file }, useNullAsDefault: true });
  try {
    return (await k.raw(sql)) as T[];
  } finally {
    await k.destroy();
  }
}

describe('exhale backup and exhale restore (SQLite)', () => {
  let dir: string;
  let env: Record<string, string>;
  let sqliteFile: string;
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'exhale-backup-'));
    env = { EXHALE_DATA_DIR: path.join(dir, 'data') };
    sqliteFile = path.join(dir, 'data', 'exhale.sqlite');
    const init = await runExhale(env, [
      'init',
      ...['--name', 'Home', '--currency', 'EUR', '--time-zone', 'Europe/Madrid', '--owner', 'Ana'],
    ]);
    expect(init.code).toBe(0);
  }, 60_000);
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a consistent copy while another connection keeps writing', async () => {
    const writer = openDatabase({ sqliteFile });
    let written = 0;
    let backingUp = true;
    const writing = (async () => {
      while (backingUp) {
        await writer.knex('job_runs').insert({ name: `w${++written}` });
      }
    })();
    const target = path.join(dir, 'copy.sqlite');
    const result = await runExhale(env, ['backup', target]);
    backingUp = false;
    await writing;
    await writer.close();

    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Backed up ${sqliteFile} to ${target}`);
    expect(written).toBeGreaterThan(0);
    expect(await query(target, 'pragma integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    expect(await inspectSqliteFile(target)).toBe('exhale');
    // A prefix of the writes: rows w1..wN with no gap, none missing in between.
    const rows = await query<{ name: string }>(target, 'select name from job_runs');
    const numbers = rows.map((r) => Number(r.name.slice(1))).sort((x, y) => x - y);
    expect(numbers).toEqual(numbers.map((_, i) => i + 1));
    expect(numbers.length).toBeLessThanOrEqual(written);

    expect((await runExhale(env, ['backup', target])).stderr).toContain('exists already');
  }, 60_000);

  it('restores a backup: what was written after it is gone, the replaced file is kept aside', async () => {
    const target = path.join(dir, 'before.sqlite');
    expect((await runExhale(env, ['backup', target])).code).toBe(0);
    const later = await runExhale(env, [
      'op',
      'create_subscription',
      '{"name":"Later","amount":"1.00"}',
    ]);
    expect(later.code).toBe(0);

    const restored = await runExhale(env, ['restore', target]);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    const listed = await runExhale(env, ['op', 'list_subscriptions']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain('Later');
    const aside = readdirSync(path.join(dir, 'data')).filter((f) =>
      f.startsWith('exhale.sqlite.bak-'),
    );
    expect(aside).toHaveLength(1);
    const kept = await query<{ name: string }>(
      path.join(dir, 'data', aside[0] ?? ''),
      'select name from subscriptions',
    );
    expect(kept).toEqual([{ name: 'Later' }]);
  }, 60_000);

  it('refuses to restore while an exhale process has the database open', async () => {
    const target = path.join(dir, 'copy.sqlite');
    expect((await runExhale(env, ['backup', target])).code).toBe(0);
    const exhale = await startExhaleProcess(env);
    try {
      const refused = await runExhale(env, ['restore', target]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('open in another process');
      expect((await fetch(`${exhale.url}/healthz`)).status).toBe(200);
    } finally {
      exhale.kill('SIGTERM');
      await exhale.exited;
    }
  }, 60_000);

  it('refuses a file that is not an Exhale database, or one from a newer Exhale', async () => {
    const text = path.join(dir, 'notes.txt');
    writeFileSync(text, 'not a database at all\n'.repeat(100));
    const other = path.join(dir, 'other.sqlite');
    await query(other, 'create table notes (id integer)');
    for (const file of [text, other]) {
      const refused = await runExhale(env, ['restore', file]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('is not an Exhale database; nothing was changed');
    }

    const newer = path.join(dir, 'newer.sqlite');
    expect((await runExhale(env, ['backup', newer])).code).toBe(0);
    await query(
      newer,
      "insert into knex_migrations (name, batch) values ('209901010001_future', 9)",
    );
    const refused = await runExhale(env, ['restore', newer]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('written by a newer Exhale');
    // Nothing was changed: the database is still the one init made, and nothing was set aside.
    expect(readdirSync(path.join(dir, 'data')).some((f) => f.includes('.bak-'))).toBe(false);
    copyFileSync(sqliteFile, path.join(dir, 'still.sqlite'));
    expect(await inspectSqliteFile(path.join(dir, 'still.sqlite'))).toBe('exhale');
  }, 60_000);
});

describe('exhale backup and restore on PostgreSQL', () => {
  it('say to use pg_dump and pg_restore, and exit non-zero', async () => {
    // Never connected to: the commands answer from the configuration alone.
    const env = { EXHALE_DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' };
    for (const command of ['backup', 'restore']) {
      const result = await runExhale(env, [command, 'exhale.dump']);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('pg_dump');
    }
  }, 60_000);
});
