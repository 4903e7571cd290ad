/**
 * Every bank statement of the shared fixtures through read_statement, as a newcomer would send
 * it (no currency told), in a fresh household of each currency named: one line a file with what
 * a person would read (the candidates' name, amount, currency, cycle and last charge), or the
 * sentence it was refused with. A reading aid for people, not a test (the tests pin the figures:
 * test/core/imports/statements/fixtures.test.ts, test/core/ops/statements/fixtureSweep.test.ts).
 *
 *   npx tsx scripts/sweepStatements.ts [folder] [--currency EUR,USD]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { isOpError } from '../core/errors/index.ts';
import { stopOcr } from '../core/imports/statements/ocr/worker.ts';
import { createTestHousehold } from '../test/helpers/testCore.ts';

const args = process.argv.slice(2);
const flag = args.indexOf('--currency');
const currencies = flag >= 0 ? (args[flag + 1] ?? 'EUR').split(',') : ['EUR'];
const folder =
  args.find((a, i) => !a.startsWith('--') && i !== flag + 1) ??
  new URL('../../shared/fixtures/bank/', import.meta.url).pathname;

const files = ['csv', 'ofx', 'pdf'].flatMap((dir) =>
  readdirSync(join(folder, dir))
    .sort()
    .map((f) => join(dir, f)),
);

for (const currency of currencies) {
  const h = await createTestHousehold({ currency });
  console.log(`# household in ${currency}`);
  for (const file of files) {
    const bytes = readFileSync(join(folder, file));
    try {
      const { output } = await h.core.invoke('read_statement', h.owner, {
        file_name: file,
        content: Buffer.from(bytes).toString('base64'),
        encoding: 'base64',
      });
      const found = output.candidates.map(
        (c) =>
          `${c.name} ${c.amount} ${c.currency} ${c.cycle.every}/${c.cycle.unit} last ${c.last_charge}` +
          `${c.tracked ? ` (tracked: ${c.tracked.name})` : ''}`,
      );
      const tx = output.transactions;
      console.log(
        `${file}\t${output.format} ${tx.count} tx ${tx.currency} sum ${tx.sum}\t${found.join('; ') || '-'}`,
      );
    } catch (error) {
      console.log(`${file}\trefused: ${isOpError(error) ? error.render('en') : String(error)}`);
    }
  }
  await h.close();
}
await stopOcr();
