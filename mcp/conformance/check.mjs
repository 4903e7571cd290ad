/* global process, console */
// Reads the conformance CLI's results (one folder per scenario, each with checks.json) and decides.
// A check the CLI itself marks untestable (details.untestable: it needs a test-only fixture tool that a
// real server does not have) is reported and tolerated; any other FAILURE, or a scenario without
// results, fails the run. Usage: node check.mjs RESULTS_DIR scenario…
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const [dir, ...scenarios] = process.argv.slice(2);
if (!dir || scenarios.length === 0) {
  console.error('usage: node check.mjs RESULTS_DIR scenario…');
  process.exit(2);
}

const folders = readdirSync(dir);
let failed = false;
for (const scenario of scenarios) {
  const folder = folders
    .filter((f) => f.startsWith(`server-${scenario}-`))
    .sort()
    .at(-1);
  if (!folder) {
    console.log(`✗ ${scenario}: no results (the conformance run crashed or skipped it)`);
    failed = true;
    continue;
  }
  const checks = JSON.parse(readFileSync(path.join(dir, folder, 'checks.json'), 'utf8'));
  const count = (status) => checks.filter((c) => c.status === status).length;
  const untestable = checks.filter((c) => c.status === 'FAILURE' && c.details?.untestable === true);
  const real = checks.filter((c) => c.status === 'FAILURE' && c.details?.untestable !== true);
  const mark = real.length === 0 ? '✓' : '✗';
  const extra = untestable.length > 0 ? `, ${untestable.length} untestable without fixtures` : '';
  console.log(
    `${mark} ${scenario}: ${count('SUCCESS')} passed, ${real.length} failed${extra}, ${count('WARNING')} warnings`,
  );
  for (const c of real) console.log(`    FAIL ${c.id}: ${c.errorMessage ?? c.description}`);
  for (const c of untestable) console.log(`    untestable ${c.id}`);
  for (const c of checks.filter((x) => x.status === 'WARNING'))
    console.log(`    warning ${c.id}: ${c.errorMessage ?? c.description}`);
  if (real.length > 0 || checks.length === 0) failed = true;
}
process.exit(failed ? 1 : 0);
