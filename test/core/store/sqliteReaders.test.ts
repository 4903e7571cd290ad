import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Knex } from 'knex';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { memberActor, newcomerActor, type Actor } from '../../../core/kernel/actor.ts';
import { Core } from '../../../core/kernel/core.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import { type Database, migrate, openDatabase } from '../../../core/store/connection.ts';
import { freshnessReads } from '../../helpers/freshnessReads.ts';
import { openTestDatabase, TEST_DIALECT } from '../../helpers/testCore.ts';

/** The statements `k` sends while `work` runs. */
async function statementsOn(k: Knex, work: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const listener = (q: { sql: string }) => sent.push(q.sql);
  k.on('query', listener);
  try {
    await work();
  } finally {
    k.off('query', listener);
  }
  return sent;
}

/** A household with its owner, made through the ops on `core`. */
async function household(core: Core<typeof catalog>): Promise<Actor> {
  const created = await core.invoke('create_household', newcomerActor('cli', 'en'), {
    name: 'Readers',
    currency: 'EUR',
    time_zone: 'Europe/Madrid',
    owner_name: 'Ana',
  });
  const { household: h, member } = created.output;
  return memberActor({ ...member, household_id: h.id }, 'cli');
}

/** A query that keeps one connection busy for a while (counts to n in a recursive CTE). */
const heavy = (n: number) =>
  `with recursive c(x) as (select 1 union all select x + 1 from c where x < ${n}) select count(*) as n from c`;

describe('the read pool beside the one SQLite writer (core/store/connection.ts)', () => {
  let dir: string;
  let file: string;
  let db: Database;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'exhale-readers-'));
    file = join(dir, 'exhale.sqlite');
    db = openDatabase({ sqliteFile: file });
    await migrate(db);
  });
  afterEach(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is a few read-only connections: a write sent there fails and writes nothing', async () => {
    const reader = db.reader;
    if (!reader) throw new Error('a SQLite file has a read pool');
    await expect(reader('categories').insert({ id: 'x' })).rejects.toThrow(/readonly/i);
    expect(await db.knex('categories').count({ n: '*' })).toEqual([{ n: 0 }]);
    const rows = (await reader.raw('PRAGMA query_only')) as Array<{ query_only: number }>;
    expect(rows[0]?.query_only).toBe(1);
  });

  it('runs read ops there and writes (with the reads inside them) on the writer', async () => {
    const core = new Core({ db, catalog });
    const owner = await household(core);
    const reader = db.reader;
    if (!reader) throw new Error('a SQLite file has a read pool');
    let created = '';
    const onReaderForWrite = await statementsOn(reader, async () => {
      const out = await core.invoke('create_subscription', owner, {
        name: 'Netflix',
        amount: '12.99',
        first_charge_date: '2026-04-01',
      });
      created = out.output.id;
    });
    expect(onReaderForWrite).toEqual([]);
    const onWriter: string[] = [];
    let checks = 0;
    const onReader = await statementsOn(reader, () =>
      statementsOn(db.knex, async () => {
        checks = await freshnessReads(db, async () => {
          const got = await core.invoke('get_subscription', owner, { id: created });
          expect(got.output.name).toBe('Netflix');
        });
      }).then((s) => onWriter.push(...s)),
    );
    expect(onReader.some((sql) => sql.includes('subscriptions'))).toBe(true);
    // The writer answers only the freshness check (data_version is per connection: the writer's),
    // by the statement prepared on it beside knex's pool: knex sends nothing there.
    expect(onWriter).toEqual([]);
    expect(checks).toBe(1);
  });

  it('sees a commit of the writer, and of another process, on the very next read', async () => {
    const core = new Core({ db, catalog });
    const owner = await household(core);
    const list = async () =>
      (await core.invoke('list_subscriptions', owner, {})).output.items.map((s) => s.name);
    expect(await list()).toEqual([]);
    await core.invoke('create_subscription', owner, {
      name: 'Spotify',
      amount: '10.99',
      first_charge_date: '2026-04-01',
    });
    expect(await list()).toEqual(['Spotify']);
    // A second Database on the file is what the CLI beside the server is: its commit is seen next.
    const other = openDatabase({ sqliteFile: file });
    try {
      await new Core({ db: other, catalog }).invoke('create_subscription', owner, {
        name: 'Disney+',
        amount: '8.99',
        first_charge_date: '2026-04-02',
      });
    } finally {
      await other.close();
    }
    expect(await list()).toEqual(['Disney+', 'Spotify']);
  });

  it('never sees a write transaction half-way, nor one that failed', async () => {
    const reader = db.reader;
    if (!reader) throw new Error('a SQLite file has a read pool');
    const count = async () => Number((await reader('categories').count({ n: '*' }))[0]?.n);
    const core = new Core({ db, catalog });
    await household(core);
    const before = await count();
    const householdId = (await db.knex('households').first('id'))?.id;
    const row = (id: string) => ({
      id,
      household_id: householdId,
      name: id,
      created_at: 'x',
    });
    const trx = await db.knex.transaction();
    try {
      await trx('categories').insert(row('half'));
      expect(await count()).toBe(before); // written, not committed: the reader's snapshot has none
    } finally {
      await trx.rollback();
    }
    expect(await count()).toBe(before);
    await expect(
      db.knex.transaction(async (t) => {
        await t('categories').insert(row('failed'));
        throw new Error('mid-way');
      }),
    ).rejects.toThrow('mid-way');
    expect(await count()).toBe(before);
  });

  it('runs heavy reads on several connections at once, and a write commits meanwhile', async () => {
    const reader = db.reader;
    if (!reader) throw new Error('a SQLite file has a read pool');
    const connections = new Set<unknown>();
    const listener = (q: { __knexUid?: unknown }) => connections.add(q.__knexUid);
    reader.on('query', listener);
    const reads = Array.from({ length: 4 }, () => reader.raw(heavy(300_000)));
    // The writer is not behind the readers: this commit settles while they may still run, and
    // every read still answers in full.
    const core = new Core({ db, catalog });
    await household(core);
    const answers = (await Promise.all(reads)) as Array<Array<{ n: number }>>;
    reader.off('query', listener);
    expect(answers.map((a) => a[0]?.n)).toEqual([300_000, 300_000, 300_000, 300_000]);
    expect(connections.size).toBe(3); // the pool's size: three statements ran side by side
  });

  it('is not opened for an in-memory database (another connection would be another database)', async () => {
    const memory = openDatabase({ sqliteFile: ':memory:' });
    try {
      expect(memory.reader).toBeUndefined();
    } finally {
      await memory.close();
    }
    const none = openDatabase({ sqliteFile: join(dir, 'none.sqlite'), readers: 0 });
    try {
      expect(none.reader).toBeUndefined();
    } finally {
      await none.close();
    }
  });
});

describe('reads on the test database of this run', () => {
  it(`run on the pool PostgreSQL already has, with no read pool beside it (${TEST_DIALECT})`, async () => {
    const db = await openTestDatabase();
    try {
      // In memory (SQLite) or PostgreSQL: the kernel reads on `knex` itself.
      expect(db.reader).toBeUndefined();
      const core = new Core({ db, catalog });
      const owner = await household(core);
      expect((await core.invoke('list_subscriptions', owner, {})).output.items).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
