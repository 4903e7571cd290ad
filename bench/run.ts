import { readdirSync } from 'node:fs';

import type { BenchRow, BenchSuite } from './types.ts';

/**
 * `npm run bench`: runs every `bench/*.bench.ts` suite (or those named on the command line) and
 * prints one table of medians. Speed is judged from these figures, never from timed tests.
 */
const only = process.argv.slice(2);
const files = readdirSync(new URL('.', import.meta.url))
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();
const table: Array<BenchRow & { suite: string }> = [];
/** The longest one suite may run: past it the bench fails with a message instead of hanging. */
const SUITE_LIMIT_MS = Number(process.env.EXHALE_BENCH_SUITE_LIMIT_MS ?? 900_000);

async function bounded<T>(name: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`bench suite ${name} ran past ${SUITE_LIMIT_MS / 1000} s`)),
      SUITE_LIMIT_MS,
    );
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

for (const file of files) {
  const { suite } = (await import(new URL(file, import.meta.url).href)) as { suite: BenchSuite };
  if (only.length > 0 && !only.includes(suite.name)) continue;
  process.stderr.write(`running ${suite.name}…\n`);
  try {
    for (const row of await bounded(suite.name, suite.run()))
      table.push({ ...row, suite: suite.name });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
const width = Math.max(...table.map((r) => r.name.length), 10);
console.log(`${'suite'.padEnd(10)} ${'benchmark'.padEnd(width)} ${'median'.padStart(12)}  notes`);
for (const row of table) {
  const value =
    row.unit === 'ms'
      ? row.median.toFixed(row.median < 10 ? 3 : 1)
      : String(Math.round(row.median));
  console.log(
    `${row.suite.padEnd(10)} ${row.name.padEnd(width)} ${`${value} ${row.unit}`.padStart(12)}  ${row.note ?? ''}`,
  );
}
console.log(`\nnode ${process.version}, ${process.platform}/${process.arch}`);
// A suite that ran past its limit may leave its servers or children behind: end the run anyway.
process.exit(process.exitCode ?? 0);
