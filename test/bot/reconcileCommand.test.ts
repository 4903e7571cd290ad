import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { FOUR_MONTHS } from '../core/ops/statements/statement.ts';

const BIN = fileURLToPath(new URL('../../bin/exhale.mjs', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `exhale` as a person runs it, on its own SQLite data directory, with `stdin` typed in. */
function exhale(dataDir: string, args: string[], stdin = ''): Promise<Run> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    EXHALE_DATA_DIR: dataDir,
    EXHALE_ECB_RATES: 'off',
  };
  delete env.EXHALE_DATABASE_URL;
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [BIN, ...args],
      { env, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(stdin);
  });
}

describe('exhale import FILE --reconcile', () => {
  let dir: string;
  let statement: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'exhale-reconcile-'));
    statement = path.join(dir, 'card.csv');
    await writeFile(statement, FOUR_MONTHS);
    const init = await exhale(dir, [
      'init',
      '--name',
      'Casa',
      '--currency',
      'EUR',
      '--time-zone',
      'Europe/Madrid',
      '--owner',
      'Ana',
    ]);
    expect(init.code).toBe(0);
    for (const sub of [
      { name: 'Netflix', amount: '15.99', first_charge_date: '2025-11-03' },
      { name: 'Iron Gym', amount: '30.00', first_charge_date: '2025-11-15' },
    ]) {
      const created = await exhale(dir, ['op', 'create_subscription', JSON.stringify(sub)]);
      expect(created.code).toBe(0);
    }
  }, 180_000);
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  const paid = async (): Promise<number> => {
    const listed = await exhale(dir, [
      'op',
      'list_charges',
      JSON.stringify({ from: '2025-11-01', to: '2026-02-28', status: ['paid'] }),
    ]);
    return (JSON.parse(listed.stdout) as { items: unknown[] }).items.length;
  };

  it('prints the reconciliation, marks the matched charges paid once the person says yes, and then has nothing left to mark', async () => {
    const dry = await exhale(dir, ['import', statement, '--reconcile', '--dry-run']);
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('🔎 Reconciled card.csv');
    expect(dry.stdout).toContain('✅ Matched: 6');
    expect(dry.stdout).toContain(
      '• Netflix Mon, 5 Jan 2026: expected 15.99 EUR, charged 17.99 EUR',
    );
    expect(dry.stdout).toContain('➕ Recurring, not tracked: 1');
    expect(dry.stdout).toContain('Dry run: 6 charges would be marked paid.');
    expect(await paid()).toBe(0);

    const no = await exhale(dir, ['import', statement, '--reconcile'], 'n\n');
    expect(no.stdout).toContain('Mark the 6 matched charges paid? [y/N]');
    expect(no.stdout).toContain('Nothing marked paid.');
    expect(await paid()).toBe(0);

    const yes = await exhale(dir, ['import', statement, '--reconcile'], 'y\n');
    expect(yes.stderr).toBe('');
    expect(yes.code).toBe(0);
    expect(yes.stdout).toContain('✅ Marked 6 charges paid');
    expect(yes.stdout).toMatch(/Undo it with: npx exhale op undo '\{"ids":\["act_[0-9a-z]+"\]\}'/);
    expect(await paid()).toBe(6);

    const again = await exhale(dir, ['import', statement, '--reconcile', '--all']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('(already recorded)');
    expect(again.stdout).not.toContain('Marked');
    expect(await paid()).toBe(6);
  }, 300_000);
});
