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
for (const file of files) {
  const { suite } = (await import(new URL(file, import.meta.url).href)) as { suite: BenchSuite };
  if (only.length > 0 && !only.includes(suite.name)) continue;
  process.stderr.write(`running ${suite.name}…\n`);
  for (const row of await suite.run()) table.push({ ...row, suite: suite.name });
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
