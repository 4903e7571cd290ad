/**
 * A second process writing a SQLite file, for tests of several processes on one database:
 * `node --import tsx test/helpers/sqliteWriter.ts FILE HOUSEHOLD MEMBER COUNT PREFIX`.
 * It opens the file, prints "ready", waits for a line on standard input (so two writers start at
 * the same moment), creates COUNT tags named PREFIX-1… one after another, and prints one JSON line:
 * `{ ok, failures }`, each failure as the sentence a person would read.
 */
import { createInterface } from 'node:readline';

import { memberActor } from '../../core/kernel/actor.ts';
import { Core } from '../../core/kernel/core.ts';
import { catalog } from '../../core/ops/catalog.ts';
import { openDatabase } from '../../core/store/connection.ts';
import { toOpError } from '../../core/errors/index.ts';

const [file = '', householdId = '', memberId = '', count = '0', prefix = 'tag'] =
  process.argv.slice(2);
const db = openDatabase({ sqliteFile: file });
const core = new Core({ db, catalog });
const actor = memberActor(
  { id: memberId, household_id: householdId, role: 'owner', language: 'en' },
  'cli',
);
await db.knex.raw('select 1');
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => lines.once('line', () => resolve()));
lines.close();

let ok = 0;
const failures: string[] = [];
for (let i = 1; i <= Number(count); i += 1) {
  try {
    await core.invoke('create_tag', actor, { name: `${prefix}-${i}` });
    ok += 1;
  } catch (error) {
    failures.push(
      toOpError(error).code === 'internal' ? String(error) : toOpError(error).render('en'),
    );
  }
}
process.stdout.write(`${JSON.stringify({ ok, failures })}\n`);
await db.close();
