import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type Database, migrate, openDatabase } from '../../../core/store/connection.ts';
import type { DataVersionProbe } from '../../../core/store/dataVersion.ts';
import { cachedRead, readCacheOf } from '../../../core/kernel/readCache.ts';

const run = promisify(execFile);

/** Another process commits a row to the file (as the CLI beside the server does). */
async function commitInAnotherProcess(file: string, id: string): Promise<void> {
  const script = `
    const sqlite3 = require('sqlite3');
    const db = new sqlite3.Database(process.argv[1]);
    db.run("insert into fx_rates (id, household_id, date, currency, per_eur, source) values (?, '', '2026-01-01', 'USD', 1.1, 'test')",
      [process.argv[2]], (err) => { if (err) { console.error(err); process.exit(1); } db.close(); });`;
  await run(process.execPath, ['-e', script, file, id], { cwd: process.cwd() });
}

/**
 * SQLite's freshness check on the writer's connection, prepared once (core/store/dataVersion.ts):
 * what the read cache relies on to see another process's commit on the very next request.
 */
describe('the writer’s data_version statement (core/store/dataVersion.ts)', () => {
  let dir: string;
  let file: string;
  let db: Database;
  let probe: DataVersionProbe;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'exhale-dv-'));
    file = join(dir, 'exhale.sqlite');
    db = openDatabase({ sqliteFile: file });
    await migrate(db);
    if (!db.dataVersion) throw new Error('a SQLite database has the statement');
    probe = db.dataVersion;
  });
  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const read = async () => {
    const value = probe.read();
    if (value === null) throw new Error('the writer’s connection is open');
    return value;
  };

  // A statement that kept a read snapshot between reads (stepped once, never finished) would not
  // see the other process's commit here.
  it('moves when another process commits, and not for the writer’s own commits', async () => {
    const first = await read();
    await db.knex('fx_rates').insert({
      id: 'fx_own',
      household_id: '',
      date: '2026-01-01',
      currency: 'GBP',
      per_eur: 0.85,
      source: 'test',
    });
    expect(await read()).toBe(first);
    await commitInAnotherProcess(file, 'fx_other');
    expect(await read()).not.toBe(first);
  });

  it('answers while a write transaction holds the writer’s knex connection', async () => {
    await read();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let inside = () => {};
    const begun = new Promise<void>((resolve) => (inside = resolve));
    const busy = db.knex.transaction(async (trx) => {
      await trx('fx_rates').insert({
        id: 'fx_tx',
        household_id: '',
        date: '2026-01-02',
        currency: 'USD',
        per_eur: 1.1,
        source: 'test',
      });
      inside();
      await held;
    });
    await begun;
    // Answered with the transaction still open (a knex query would wait for its connection).
    expect(typeof (await read())).toBe('number');
    release();
    await busy;
  });

  it('answers callers who ask while a read is on its way with one later read for all of them', async () => {
    const before = await read();
    await commitInAnotherProcess(file, 'fx_meanwhile');
    const sent = probe.reads;
    // The first is sent at once; the three asked while it is on its way may have asked after
    // SQLite ran it, so they share the read sent when it is answered.
    const values = await Promise.all([read(), read(), read(), read()]);
    expect(values.every((v) => v !== before)).toBe(true);
    expect(probe.reads - sent).toBe(2);
  });

  it('tells the read cache when knex replaced the writer’s connection, whose count starts again', async () => {
    readCacheOf(db);
    let builds = 0;
    const build = async () => (builds += 1);
    await cachedRead(db.knex, 'hh_1', 'slot', '', build, { strict: true });
    await cachedRead(db.knex, 'hh_1', 'slot', '', build, { strict: true });
    expect(builds).toBe(1);
    const before = probe.generation;
    // A new pool with a new connection (what knex does after a connection failed).
    await db.knex.destroy();
    db.knex.initialize();
    await db.knex.raw('select 1');
    expect(probe.generation).toBe(before + 1);
    await cachedRead(db.knex, 'hh_1', 'slot', '', build, { strict: true });
    expect(builds).toBe(2);
  });

  it('lets the database close with a read on its way, finalizing the statement first (SQLite refuses otherwise)', async () => {
    const other = openDatabase({ sqliteFile: file });
    await other.knex.raw('select 1');
    const probe = other.dataVersion;
    const pending = probe?.read();
    if (!probe || !pending) throw new Error('the writer’s connection is open');
    const queued = probe.read();
    const closing = other.close();
    await expect(pending).resolves.toEqual(expect.any(Number));
    // The one asked behind it was never sent: refused, not answered with an old value.
    await expect(queued).rejects.toThrow(/closed/);
    await expect(closing).resolves.toBeUndefined();
    expect(probe.read()).toBeNull();
  });
});
