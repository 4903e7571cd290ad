import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { isOpError } from '../../../core/errors/index.ts';
import { t } from '../../../core/i18n/index.ts';
import { memberActor, newcomerActor } from '../../../core/kernel/actor.ts';
import { Core } from '../../../core/kernel/core.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import { type Database, migrate, openDatabase } from '../../../core/store/connection.ts';

const WRITER = fileURLToPath(new URL('../../helpers/sqliteWriter.ts', import.meta.url));

/** One writer process; resolves with its report once it has printed it and exited. */
function startWriter(args: string[]): {
  child: ChildProcess;
  ready: Promise<void>;
  done: Promise<{ ok: number; failures: string[] }>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', WRITER, ...args], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout! });
  const ready = new Promise<void>((resolve) => lines.once('line', () => resolve()));
  const done = new Promise<{ ok: number; failures: string[] }>((resolve, reject) => {
    let last = '';
    lines.on('line', (line) => (last = line));
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(last) as { ok: number; failures: string[] })
        : reject(new Error(`writer exited with ${code}`)),
    );
  });
  return { child, ready, done };
}

describe('one SQLite file, several processes', () => {
  let dir: string;
  let file: string;
  let db: Database;
  let core: Core<typeof catalog>;
  let householdId: string;
  let memberId: string;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'exhale-sqlite-'));
    file = path.join(dir, 'exhale.sqlite');
    db = openDatabase({ sqliteFile: file });
    await migrate(db);
    core = new Core({ db, catalog });
    const created = await core.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Casa',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      language: 'en',
      owner_name: 'Ana',
    });
    householdId = created.output.household.id;
    memberId = created.output.member.id;
  });
  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('completes every write of two processes writing at the same moment', async () => {
    const writers = ['a', 'b'].map((prefix) =>
      startWriter([file, householdId, memberId, '40', prefix]),
    );
    await Promise.all(writers.map((w) => w.ready));
    for (const w of writers) w.child.stdin?.end('go\n');
    const reports = await Promise.all(writers.map((w) => w.done));
    expect(reports).toEqual([
      { ok: 40, failures: [] },
      { ok: 40, failures: [] },
    ]);
    const tags = await core.invoke(
      'list_tags',
      memberActor(
        { id: memberId, household_id: householdId, role: 'owner', language: 'en' },
        'cli',
      ),
      {},
    );
    expect(tags.output.items).toHaveLength(80);
  }, 60_000);

  it('refuses a write that waited out busy_timeout as unavailable, in a sentence in the reader’s language', async () => {
    // Another connection (another process, as far as SQLite knows) holds the write lock.
    const other = openDatabase({ sqliteFile: file });
    const held = await other.knex.transaction();
    try {
      const ana = memberActor(
        { id: memberId, household_id: householdId, role: 'owner', language: 'es' },
        'cli',
      );
      const error = await core.invoke('create_tag', ana, { name: 'trabajo' }).catch((e) => e);
      expect(isOpError(error) && error.code).toBe('unavailable');
      expect(isOpError(error) && error.render('es')).toBe(t('es', 'errors.busy'));
      expect(String(error)).not.toMatch(/SQLITE|insert|select/i);
    } finally {
      await held.rollback();
      await other.close();
    }
  }, 30_000);
});
