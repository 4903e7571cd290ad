import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { memberActor, newcomerActor, type Actor } from '../../../core/kernel/actor.ts';
import { Core } from '../../../core/kernel/core.ts';
import type { ChangeEvent } from '../../../core/kernel/events.ts';
import { SqliteEventBus } from '../../../core/kernel/sqliteEventBus.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import { type Database, migrate, openDatabase } from '../../../core/store/connection.ts';
import { TEST_NOW } from '../../helpers/testCore.ts';

/**
 * SqliteEventBus: the change events of every process on one SQLite file. These tests run on a
 * SQLite file whatever EXHALE_TEST_DATABASE_URL says: the bus exists only for SQLite (PostgreSQL
 * has PostgresEventBus, tested in pgEventBus.test.ts).
 */

const WRITER = fileURLToPath(new URL('../../helpers/sqliteWriter.ts', import.meta.url));

/** One process's view of the file: its own connection, bus and Core. */
interface Process {
  db: Database;
  bus: SqliteEventBus;
  core: Core<typeof catalog>;
  heard: ChangeEvent[];
}

describe('SqliteEventBus', () => {
  let dir = '';
  let file = '';
  const opened: Process[] = [];
  let householdId = '';
  let owner: Actor;

  /** Opens the file as another process would, with a bus that records what it delivers. */
  async function open(intervalMs = 20): Promise<Process> {
    const db = openDatabase({ sqliteFile: file });
    const bus = new SqliteEventBus({ db, intervalMs, log: () => undefined });
    await bus.start();
    const core = new Core({ db, catalog, bus, clock: () => TEST_NOW });
    const heard: ChangeEvent[] = [];
    bus.subscribe((event) => heard.push(event));
    const process = { db, bus, core, heard };
    opened.push(process);
    return process;
  }

  /** Resolves once `p` has delivered `count` events (bounded; the bus is polled, never slept on). */
  async function heardAtLeast(p: Process, count: number, boundMs = 10_000): Promise<void> {
    const deadline = Date.now() + boundMs;
    while (p.heard.length < count) {
      if (Date.now() > deadline) throw new Error(`heard ${p.heard.length} of ${count} events`);
      await p.bus.poll();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'exhale-bus-'));
    file = path.join(dir, 'exhale.sqlite');
    const setup = openDatabase({ sqliteFile: file });
    await migrate(setup);
    const core = new Core({ db: setup, catalog, clock: () => TEST_NOW });
    const created = await core.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      owner_name: 'Ana',
    });
    householdId = created.output.household.id;
    owner = memberActor(
      { id: created.output.member.id, household_id: householdId, role: 'owner', language: 'en' },
      'cli',
    );
    await setup.close();
  });

  afterEach(async () => {
    for (const p of opened.splice(0)) {
      await p.bus.close();
      await p.db.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it("delivers another process's change, once, as the event that process published", async () => {
    const a = await open();
    const b = await open();
    const published: ChangeEvent[] = [];
    b.bus.subscribe((event) => published.push(event));
    await b.core.invoke('create_tag', owner, { name: 'family' });
    await heardAtLeast(a, 1);
    await a.bus.poll();
    expect(a.heard).toEqual(published);
    expect(a.heard[0]).toMatchObject({ kind: 'changed', householdId, op: 'create_tag' });
  });

  it('delivers its own change at once and never again when it reads the audit log', async () => {
    const a = await open();
    const b = await open();
    await a.core.invoke('create_tag', owner, { name: 'mine' });
    expect(a.heard.map((e) => e.op)).toEqual(['create_tag']);
    // Another process's commit makes it read the log, where its own entry is too.
    await b.core.invoke('create_tag', owner, { name: 'theirs' });
    await heardAtLeast(a, 2);
    await a.bus.poll();
    expect(a.heard).toHaveLength(2);
    expect(new Set(a.heard.map((e) => e.auditId)).size).toBe(2);
  });

  it("hears a real second process's writes, every one in commit order", async () => {
    const a = await open();
    const writer = spawn(
      process.execPath,
      ['--import', 'tsx', WRITER, file, householdId, owner.memberId ?? '', '600', 'cli'],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    let out = '';
    writer.stdout.setEncoding('utf8');
    writer.stdout.on('data', (chunk: string) => (out += chunk));
    while (!out.includes('ready')) await once(writer.stdout, 'data');
    writer.stdin.write('go\n');
    await once(writer, 'exit');
    expect(JSON.parse(out.slice(out.indexOf('{')))).toEqual({ ok: 600, failures: [] });
    // More entries than one read of the log takes (500): all of them, in order.
    await heardAtLeast(a, 600);
    const inOrder = (await a.db
      .knex('audit_entries')
      .where({ op: 'create_tag' })
      .orderBy('seq')
      .pluck('id')) as string[];
    expect(inOrder).toHaveLength(600);
    expect(a.heard.map((e) => e.auditId)).toEqual(inOrder);
  });

  it('delivers nothing of a process killed before it committed, and hears the next commit', async () => {
    const a = await open();
    // A writer that inserts an audit entry inside a transaction, says so, and is killed holding it.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `const sqlite3 = require('sqlite3');
         const db = new sqlite3.Database(process.argv[1]);
         db.serialize(() => {
           db.run('PRAGMA busy_timeout = 5000');
           db.run('BEGIN IMMEDIATE');
           db.run("CREATE TEMP TABLE ghost AS SELECT * FROM audit_entries LIMIT 1");
           db.run("UPDATE ghost SET id = 'act_ghost', seq = NULL");
           db.run('INSERT INTO audit_entries SELECT * FROM ghost', () => console.log('holding'));
         });`,
        file,
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
        cwd: fileURLToPath(new URL('../../..', import.meta.url)),
      },
    );
    holder.stdout.setEncoding('utf8');
    let said = '';
    while (!said.includes('holding')) said += String((await once(holder.stdout, 'data'))[0]);
    holder.kill('SIGKILL');
    await once(holder, 'exit');
    await a.bus.poll();
    expect(a.heard).toEqual([]);
    const b = await open();
    await b.core.invoke('create_tag', owner, { name: 'after' });
    await heardAtLeast(a, 1);
    expect(a.heard.map((e) => e.auditId)).not.toContain('act_ghost');
    expect(a.heard.map((e) => e.op)).toEqual(['create_tag']);
  });

  it('hears two writers committing at once, each change once', async () => {
    const a = await open();
    const b = await open();
    const c = await open();
    await Promise.all([
      ...Array.from({ length: 10 }, (_, i) =>
        b.core.invoke('create_tag', owner, { name: `b${i}` }),
      ),
      ...Array.from({ length: 10 }, (_, i) =>
        c.core.invoke('create_tag', owner, { name: `c${i}` }),
      ),
    ]);
    await heardAtLeast(a, 20);
    await a.bus.poll();
    expect(a.heard).toHaveLength(20);
    expect(new Set(a.heard.map((e) => e.auditId)).size).toBe(20);
  });

  it('stops delivering once closed', async () => {
    const a = await open();
    const b = await open();
    await a.bus.close();
    await b.core.invoke('create_tag', owner, { name: 'late' });
    await a.bus.poll();
    expect(a.heard).toEqual([]);
  });

  it('looks by itself, on its timer, without being asked', async () => {
    const a = await open(10);
    const b = await open();
    await b.core.invoke('create_tag', owner, { name: 'on time' });
    await new Promise<void>((resolve) => {
      const off = a.bus.subscribe(() => {
        off();
        resolve();
      });
      if (a.heard.length > 0) resolve();
    });
    expect(a.heard.map((e) => e.op)).toEqual(['create_tag']);
  });
});
