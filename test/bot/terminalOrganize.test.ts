import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { runTerminalChat } from '../../bot/terminal/index.ts';
import { createTestHousehold, TEST_DIALECT, type TestHousehold } from '../helpers/testCore.ts';

/** A terminal session with `lines` typed in, files written to `dir`; returns what it printed. */
async function session(h: TestHousehold, dir: string, lines: string[]): Promise<string> {
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const done = runTerminalChat({ core: h.core, actor: h.owner, input, output, filesDir: dir });
  for (const line of lines) input.write(`${line}\n`);
  input.end();
  await done;
  return printed;
}

describe(`organizing and files in the terminal chat (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  let other: TestHousehold;
  let dir: string;
  beforeEach(async () => {
    h = await createTestHousehold();
    other = await createTestHousehold();
    dir = await mkdtemp(path.join(tmpdir(), 'exhale-terminal-'));
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
      currency: 'EUR',
      category: 'TV',
    });
  });
  afterEach(async () => {
    await h.close();
    await other.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes /export into the folder and prints the paths; /import and /file bring it into another household with a preview and Undo', async () => {
    const printed = await session(h, dir, ['/export']);
    const json = path.join(dir, 'exhale-2026-03-02.json');
    const csv = path.join(dir, 'exhale-subscriptions-2026-03-02.csv');
    expect(printed).toContain(`📄 Saved ${json}\n📄 Saved ${csv}`);
    expect(JSON.parse(await readFile(json, 'utf8'))).toMatchObject({ format: 'exhale/1' });
    expect(await readFile(csv, 'utf8')).toContain('Netflix');

    const imported = await session(other, dir, ['/import', `/file ${json}`, '1']);
    expect(imported).toContain('Send me the file to import');
    expect(imported).toContain('┌ 📝 Import 1 subscription?');
    expect(imported).toContain('│ exhale-2026-03-02.json: an Exhale export.');
    expect(imported).toContain('[1] ✅ Confirm   [2] ✖️ Discard');
    expect(imported).toContain('┌ ✅ Imported');
    expect(await other.db.knex('subscriptions').pluck('name')).toEqual(['Netflix']);
    expect(await other.db.knex('audit_entries').where({ op: 'import_data' })).toHaveLength(1);
  });

  it('en español: crea, lista y borra categorías con números, y Deshacer la devuelve', async () => {
    await h.core.invoke('update_member', h.owner, { id: h.ownerId, language: 'es' });
    const printed = await session(h, dir, [
      '/categories nueva Ocio',
      'categories',
      // The list: [2] Ocio, [3] TV, [4] New; TV's card: [5] rename, [6] merge, [7] delete, [8] back;
      // the preview: [9] Confirm, [10] Discard; the result: [11] Undo.
      '3',
      '7',
      '9',
    ]);
    expect(printed).toContain('┌ ✅ Categoría Ocio creada');
    expect(printed).toContain('│ • TV — 1 suscripción');
    expect(printed).toContain('│ Su suscripción se quedará sin categoría (no se borra).');
    expect(printed).toContain('┌ ✅ Categoría TV borrada');
    expect(printed).toContain('[11] ↩️ Deshacer');
    expect(await h.db.knex('categories').orderBy('name').pluck('name')).toEqual(['Ocio']);
    expect(await h.db.knex('subscriptions').whereNotNull('category_id')).toHaveLength(0);
    expect(await h.db.knex('audit_entries').where({ op: 'delete_category' })).toHaveLength(1);
  });
});
