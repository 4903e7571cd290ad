/** One line of the benchmark table: a name, the median and what it is measured in, and notes (ratios, sizes). */
export interface BenchRow {
  name: string;
  median: number;
  unit: string;
  note?: string;
}

/** A benchmark suite: `bench/run.ts` runs every suite in turn and prints one table. */
export interface BenchSuite {
  name: string;
  run(): Promise<BenchRow[]>;
}

/** Runs `fn` `runs` times after `warmup` runs and returns the median duration in milliseconds. */
export async function medianMs(fn: () => Promise<unknown>, runs = 15, warmup = 3): Promise<number> {
  for (let i = 0; i < warmup; i += 1) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

/**
 * Medians of two functions measured in alternation (a, b, a, b…), so JIT warm-up, GC and a noisy
 * neighbour weigh on both alike: the fair way to state a ratio.
 */
export async function interleavedMs(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  runs = 300,
  warmup = 50,
): Promise<[number, number]> {
  for (let i = 0; i < warmup; i += 1) {
    await a();
    await b();
  }
  const ta: number[] = [];
  const tb: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    for (const [fn, into] of i % 2 === 0
      ? ([
          [a, ta],
          [b, tb],
        ] as const)
      : ([
          [b, tb],
          [a, ta],
        ] as const)) {
      const start = process.hrtime.bigint();
      await fn();
      into.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
  }
  const median = (xs: number[]) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? 0;
  return [median(ta), median(tb)];
}

/**
 * The PostgreSQL database the core, web and assistant suites run on instead of SQLite, when set:
 * `EXHALE_BENCH_PG_URL` (the writers suite's name too) or `EXHALE_BENCH_DATABASE_URL`.
 */
export function benchPostgresUrl(): string | undefined {
  return process.env.EXHALE_BENCH_PG_URL || process.env.EXHALE_BENCH_DATABASE_URL || undefined;
}
