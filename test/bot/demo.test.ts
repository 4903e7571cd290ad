import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runExhale } from '../helpers/exhaleProcess.ts';
import { openSharedTestDatabase, type SharedTestDatabase } from '../helpers/sharedDatabase.ts';

interface ActivityItem {
  id: string;
  op: string;
  summary: string;
  channel: string;
  member_name: string | null;
  can_undo: boolean;
}

/**
 * `npx exhale demo`, then `npx exhale chat` as a newcomer tries it: the demo's seeded history is
 * the demo's. Activity says so, and "undo my last change" never takes back a change the person at
 * the keyboard did not make. Real processes on one database (SQLite file, or a PostgreSQL schema).
 */
describe('exhale demo, then exhale chat', () => {
  let shared: SharedTestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    shared = await openSharedTestDatabase();
    env =
      shared.dialect === 'sqlite'
        ? { EXHALE_DATA_DIR: (shared.sqliteFile ?? '').replace(/\/exhale\.sqlite$/, '') }
        : {
            EXHALE_DATABASE_URL: `${shared.url ?? ''}?options=${encodeURIComponent(`-c search_path=${shared.schema ?? ''}`)}`,
          };
    const demo = await runExhale(env, ['demo']);
    expect(demo.stderr).toBe('');
    expect(demo.code).toBe(0);
  }, 120_000);
  afterAll(async () => shared.close());

  const activity = async (): Promise<ActivityItem[]> => {
    const listed = await runExhale(env, ['op', 'list_activity', '{"limit":100}']);
    expect(listed.code, listed.stderr).toBe(0);
    return (JSON.parse(listed.stdout) as { items: ActivityItem[] }).items;
  };

  it('answers /undo with nothing of yours to undo, in English and in Spanish, and changes nothing', async () => {
    const before = await activity();
    const ana = await runExhale(env, ['chat'], '/undo\n');
    expect(ana.code, ana.stderr).toBe(0);
    expect(ana.stdout).toContain('⚠️ There is nothing of yours to undo.');
    expect(ana.stdout).not.toContain('Undone');
    const ben = await runExhale(env, ['chat', '--as', 'Ben'], '/undo\n');
    expect(ben.code, ben.stderr).toBe(0);
    expect(ben.stdout).toContain('⚠️ No hay nada tuyo que deshacer.');
    expect(ben.stdout).not.toContain('Deshecho');
    expect(await activity()).toEqual(before);
  }, 120_000);

  it("lists the seeded history in Activity as the demo's, in each reader's language", async () => {
    const items = await activity();
    expect(items.length).toBeGreaterThan(20);
    expect(new Set(items.map((i) => i.channel))).toEqual(new Set(['demo']));
    const ana = await runExhale(env, ['chat'], '/activity\n');
    expect(ana.stdout).toContain(
      '│ 1. Marked Mobile plan paid (31.40 EUR, Tue, 3 Nov 2026)\n│     Ana · Exhale demo ·',
    );
    expect(ana.stdout).not.toContain('command line');
    const ben = await runExhale(env, ['chat', '--as', 'Ben'], '/activity\n');
    expect(ben.stdout).toContain('Ana · demo de Exhale ·');
    expect(ben.stdout).not.toContain('línea de comandos');
  }, 120_000);

  it("undoes the newcomer's own change with /undo, and a seeded entry only when named", async () => {
    const chat = await runExhale(env, ['chat'], '/add Hulu 7.99 EUR monthly 5\n/undo\n/undo\n');
    expect(chat.code, chat.stderr).toBe(0);
    expect(chat.stdout).toContain('✅ Added Hulu');
    expect(chat.stdout).toContain('┌ ↩️ Undone\n│ Added Hulu');
    // The second /undo finds nothing of the person's left: the demo's history stays.
    expect(chat.stdout).toContain('⚠️ There is nothing of yours to undo.');
    const seeded = (await activity()).find((i) => i.summary.startsWith('Marked Mobile plan paid'));
    expect(seeded).toMatchObject({ channel: 'demo', can_undo: true });
    const named = await runExhale(env, ['op', 'undo', JSON.stringify({ ids: [seeded?.id] })]);
    expect(named.code, named.stderr).toBe(0);
    expect(JSON.parse(named.stdout)).toMatchObject({
      undone: [{ id: seeded?.id, summary: 'Marked Mobile plan paid (31.40 EUR, Tue, 3 Nov 2026)' }],
    });
  }, 120_000);

  it("converts today's figures at a rate of today, so no old-rate note shows as the demo opens", async () => {
    const totals = await runExhale(env, ['op', 'get_totals', '{}']);
    expect(totals.code, totals.stderr).toBe(0);
    const { conversion } = JSON.parse(totals.stdout) as {
      conversion: { partial: boolean; rates: Array<{ currency: string; stale: boolean }> };
    };
    expect(conversion.partial).toBe(false);
    expect(conversion.rates.map((r) => [r.currency, r.stale])).toEqual([['USD', false]]);
  }, 120_000);
});
