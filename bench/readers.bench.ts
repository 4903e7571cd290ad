import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Core } from '../core/kernel/core.ts';
import { catalog } from '../core/ops/catalog.ts';
import { openDatabase } from '../core/store/connection.ts';
import { largeHousehold } from './largeHousehold.ts';
import { type BenchRow, type BenchSuite, interleavedMs } from './types.ts';

/**
 * Reads in parallel on a SQLite file: four heavy reads sent at once, on the writer's one
 * connection (`readers: 0`, how Exhale read before the read pool) and on the read pool beside it
 * (the default), measured in alternation in this one process on the same file.
 */
export const suite: BenchSuite = {
  name: 'readers',
  async run(): Promise<BenchRow[]> {
    const dir = mkdtempSync(join(tmpdir(), 'exhale-bench-readers-'));
    const sqliteFile = join(dir, 'exhale.sqlite');
    const seeded = await largeHousehold({ subscriptions: 10_000, charges: 200_000, sqliteFile });
    const one = openDatabase({ sqliteFile, readers: 0 });
    const pool = openDatabase({ sqliteFile });
    const rows: BenchRow[] = [];
    try {
      // A heavy read of the whole history: every charge with its subscription, summed per month.
      const heavySql = `select substr(c.due_date, 1, 7) as month, s.currency, sum(c.amount_minor) as total,
        count(*) as n from charges c join subscriptions s on s.id = c.subscription_id
        where c.household_id = ? group by month, s.currency order by month`;
      const four = (run: () => Promise<unknown>) => () => Promise.all([run(), run(), run(), run()]);
      const onWriter = one.knex;
      const onPool = pool.reader ?? pool.knex;
      const [sqlOne, sqlPool] = await interleavedMs(
        four(() => onWriter.raw(heavySql, [seeded.householdId])),
        four(() => onPool.raw(heavySql, [seeded.householdId])),
        9,
        2,
      );
      rows.push({
        name: '4 heavy queries at once, one connection (sqlite file)',
        median: sqlOne,
        unit: 'ms',
      });
      rows.push({
        name: '4 heavy queries at once, read pool of 3 (sqlite file)',
        median: sqlPool,
        unit: 'ms',
        note: `one connection / pool ${(sqlOne / sqlPool).toFixed(2)}x`,
      });
      // The same through the kernel: four get_totals of a month's charges, as four requests would.
      const coreOne = new Core({ db: one, catalog });
      const corePool = new Core({ db: pool, catalog });
      const totals = (core: Core<typeof catalog>) => () =>
        core.invoke('get_totals', seeded.owner, { from: '2026-02-01', to: '2026-02-28' });
      const [opOne, opPool] = await interleavedMs(
        four(totals(coreOne)),
        four(totals(corePool)),
        9,
        2,
      );
      rows.push({
        name: '4 get_totals of February at once, one connection (sqlite file)',
        median: opOne,
        unit: 'ms',
      });
      rows.push({
        name: '4 get_totals of February at once, read pool (sqlite file)',
        median: opPool,
        unit: 'ms',
        note: `one connection / pool ${(opOne / opPool).toFixed(2)}x`,
      });
    } finally {
      await one.close();
      await pool.close();
      await seeded.close();
      rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};
