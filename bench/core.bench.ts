import { loadActingHousehold } from '../core/store/repos/households.ts';
import { Core } from '../core/kernel/core.ts';
import { catalog } from '../core/ops/catalog.ts';
import { breakdownOf, breakdownRow } from './breakdown.ts';
import { largeHousehold } from './largeHousehold.ts';
import {
  benchPostgresUrl,
  type BenchRow,
  type BenchSuite,
  interleavedMs,
  medianMs,
} from './types.ts';

/** Kernel overhead, the big-household reads, and a 500-subscription bulk update with its undo. */
export const suite: BenchSuite = {
  name: 'core',
  async run(): Promise<BenchRow[]> {
    const rows: BenchRow[] = [];
    const url = benchPostgresUrl();
    const dialect = url ? 'postgres' : 'sqlite';

    const small = await largeHousehold({ subscriptions: 500, charges: 0, url });
    try {
      const id = small.subscriptionIds[42] ?? '';
      // The statements the op makes (the breakdown below counts them), run through knex by hand:
      // on SQLite the read cache's freshness check alone (`PRAGMA data_version`, which stands in
      // for the member and household lookups and for the view, kept in the read model, while
      // nothing changed); on PostgreSQL, whose bus says what changed, the view comes from the read
      // model too, and the acting member's household and membership are read each time (who may
      // act is never answered from a cache there).
      const direct = async () =>
        dialect === 'sqlite'
          ? small.db.knex.raw('PRAGMA data_version')
          : loadActingHousehold(small.db.knex, small.householdId, small.owner.memberId);
      const [viaInvoke, directMs] = await interleavedMs(
        () => small.core.invoke('get_subscription', small.owner, { id }),
        direct,
        500,
      );
      const validating = new Core({ db: small.db, catalog, validateOutputs: true });
      const [viaValidating, directMs2] = await interleavedMs(
        () => validating.invoke('get_subscription', small.owner, { id }),
        direct,
        500,
      );
      rows.push({
        name: `get_subscription via invoke() (${dialect})`,
        median: viaInvoke,
        unit: 'ms',
        note: `ratio to direct ${(viaInvoke / directMs).toFixed(2)}x (aim < 1.5x)`,
      });
      rows.push({
        name: `  same, validating outputs (dev/test default)`,
        median: viaValidating,
        unit: 'ms',
        note: `ratio ${(viaValidating / directMs2).toFixed(2)}x`,
      });
      rows.push({
        name: `  the same statements with knex directly (${dialect})`,
        median: directMs,
        unit: 'ms',
      });
      // On SQLite the kernel sends that one statement beside knex, prepared once
      // (core/store/dataVersion.ts), which costs a third of knex's round trip: the stricter
      // baseline is that statement sent the kernel's way.
      const probe = small.db.dataVersion;
      if (probe) {
        const [viaInvoke3, probeMs] = await interleavedMs(
          () => small.core.invoke('get_subscription', small.owner, { id }),
          async () => probe.read(),
          500,
        );
        rows.push({
          name: `  the same statement as the kernel sends it (prepared, sqlite)`,
          median: probeMs,
          unit: 'ms',
          note: `invoke() ${viaInvoke3.toFixed(3)} ms: ratio ${(viaInvoke3 / probeMs).toFixed(2)}x`,
        });
      }

      // Where each read's time goes (SQL, series/domain, kernel, serialization), 500 subscriptions.
      rows.push(
        breakdownRow(
          `breakdown get_subscription, 500 subs (${dialect})`,
          await breakdownOf(small.db, small.owner, 'get_subscription', { id }, 200, 50),
        ),
        breakdownRow(
          `breakdown list_subscriptions limit 20, 500 subs (${dialect})`,
          await breakdownOf(small.db, small.owner, 'list_subscriptions', { limit: 20 }, 100, 20),
        ),
      );

      const ids = small.subscriptionIds;
      let bulkMs = 0;
      let undoMs = 0;
      const runs: number[][] = [];
      for (let i = 0; i < 5; i += 1) {
        const t0 = performance.now();
        const bulk = await small.core.invoke('bulk_update_subscriptions', small.owner, {
          ids,
          change: { action: 'set_category', category: `Bulk ${i}` },
        });
        const t1 = performance.now();
        await small.core.invoke('undo', small.owner, { ids: [bulk.auditId] });
        const t2 = performance.now();
        runs.push([t1 - t0, t2 - t1]);
      }
      const med = (k: number) =>
        runs.map((r) => r[k] ?? 0).sort((a, b) => a - b)[Math.floor(runs.length / 2)] ?? 0;
      bulkMs = med(0);
      undoMs = med(1);
      rows.push({
        name: `bulk_update_subscriptions, 500 ids (${dialect})`,
        median: bulkMs,
        unit: 'ms',
      });
      rows.push({ name: `undo of that bulk update (${dialect})`, median: undoMs, unit: 'ms' });
    } finally {
      await small.close();
    }

    const big = await largeHousehold({ subscriptions: 10_000, charges: 200_000, url });
    try {
      rows.push({
        name: `list_subscriptions, 10k subs, page of 50 by name (${dialect})`,
        median: await medianMs(() => big.core.invoke('list_subscriptions', big.owner, {})),
        unit: 'ms',
      });
      rows.push({
        name: `list_subscriptions, 10k subs, by next charge (${dialect})`,
        median: await medianMs(() =>
          big.core.invoke('list_subscriptions', big.owner, { sort: 'next_charge_date' }),
        ),
        unit: 'ms',
      });
      const time = async (name: string, fn: () => Promise<unknown>, runs = 15, note?: string) =>
        rows.push({
          name: `${name} (${dialect})`,
          median: await medianMs(fn, runs, Math.min(3, runs)),
          unit: 'ms',
          note,
        });
      await time(
        'get_totals now, 10k subs + 200k charges',
        () => big.core.invoke('get_totals', big.owner, {}),
        15,
        'aim < 100 ms',
      );
      for (const group_by of ['category', 'tag', 'member'] as const) {
        await time(`get_totals now, by ${group_by}`, () =>
          big.core.invoke('get_totals', big.owner, { group_by }),
        );
      }
      await time(
        "get_totals of February's charges",
        () => big.core.invoke('get_totals', big.owner, { from: '2026-02-01', to: '2026-02-28' }),
        5,
      );
      await time(
        'get_upcoming, next 30 days',
        () => big.core.invoke('get_upcoming', big.owner, {}),
        5,
      );
      await time('get_context', () => big.core.invoke('get_context', big.owner, {}), 5);
      // The same reads, broken down (the read model cached, as between two changes).
      // A sub-millisecond read gets as many calls as the 500-subscription rows above: fifteen
      // are too few to warm the timed Core's code, and its first calls counted as kernel time.
      for (const [op, input, runs, warmup] of [
        ['get_upcoming', {}, 15, 3],
        ['get_context', {}, 15, 3],
        ['get_totals', {}, 200, 50],
        ['list_subscriptions', { sort: 'next_charge_date' }, 15, 3],
      ] as const)
        rows.push(
          breakdownRow(
            `breakdown ${op}, 10k subs (${dialect})`,
            await breakdownOf(big.db, big.owner, op, input, runs, warmup),
          ),
        );
    } finally {
      await big.close();
    }
    return rows;
  },
};
