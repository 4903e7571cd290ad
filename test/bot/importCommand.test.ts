import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { csv, FOUR_MONTHS, FOUR_MONTHS_ROWS } from '../core/ops/statements/statement.ts';

const BIN = fileURLToPath(new URL('../../bin/exhale.mjs', import.meta.url));
const UNREADABLE = fileURLToPath(
  new URL(
    '../../../shared/fixtures/bank/csv/bank2ynab-CZ-CeskaSporitelna-TH_20180521-20180523.csv',
    import.meta.url,
  ),
);

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

describe('exhale import FILE', () => {
  let dir: string;
  let statement: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'exhale-import-'));
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
  }, 120_000);
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  const names = async (): Promise<string[]> => {
    const listed = await exhale(dir, ['op', 'list_subscriptions']);
    return (JSON.parse(listed.stdout) as { items: Array<{ name: string }> }).items
      .map((s) => s.name)
      .sort();
  };

  it('shows the review, and with --dry-run what would be imported, writing nothing', async () => {
    const dry = await exhale(dir, ['import', statement, '--dry-run']);
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('📄 card.csv');
    expect(dry.stdout).toContain('Period: Mon, 3 Nov 2025 – Mon, 16 Feb 2026');
    expect(dry.stdout).toContain('15 transactions, sum');
    expect(dry.stdout).toMatch(/\[1\] ✅ \w+/);
    expect(dry.stdout).toContain('Dry run: 3 would be imported.');
    expect(await names()).toEqual([]);
  }, 120_000);

  it('says how many lines of the statement it could not read and left out', async () => {
    const file = path.join(dir, 'bad-lines.csv');
    await writeFile(
      file,
      csv([
        ...FOUR_MONTHS_ROWS,
        ['2026-02-30', 'SALARY ACME', '+2500.00'],
        ['2026-02-31', 'SALARY ACME', '+2500.00'],
      ]),
    );
    const dry = await exhale(dir, ['import', file, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain(
      "⚠️ 2 lines of the statement couldn't be read and were left out: check them in the statement.",
    );
  }, 120_000);

  it('says why each candidate looks like a subscription, and marks a cycle that is a guess', async () => {
    const file = path.join(dir, 'november.csv');
    await writeFile(
      file,
      csv([
        ['2026-11-03', 'NETFLIX.COM', '-10.99'],
        ['2026-11-12', 'CORNER CAFE', '-4.50'],
      ]),
    );
    const dry = await exhale(dir, ['import', file, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('[1] ✅ Netflix 10.99 EUR · every month ❔');
    expect(dry.stdout).toContain(
      'seen once; a known subscription service — check its cycle (every month?)',
    );
    const four = await exhale(dir, ['import', statement, '--dry-run']);
    expect(four.stdout).toContain('4 charges every month; on schedule to within 1 day');
    expect(four.stdout).not.toContain('❔');
  }, 120_000);

  it('imports the numbers typed at the prompt, then refuses the same statement again', async () => {
    const review = await exhale(dir, ['import', statement, '--dry-run']);
    const line = review.stdout.split('\n').find((l) => l.includes('Spotify')) ?? '';
    const spotify = /\[(\d)\]/.exec(line)?.[1] ?? '';
    const chosen = ['1', '2', '3'].filter((n) => n !== spotify);
    const run = await exhale(dir, ['import', statement], `${chosen.join(' ')}\n`);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Import which?');
    expect(run.stdout).toContain('Imported 2 from card.csv');
    expect(run.stdout).toMatch(/Undo it with: npx exhale op undo '\{"ids":\["act_[0-9a-z]+"\]\}'/);
    expect(await names()).toEqual(['Iron Gym', 'Netflix']);

    const again = await exhale(dir, ['import', statement, '--all']);
    expect(again.code).toBe(2);
    expect(again.stdout).toContain('This statement was already imported on');
    expect(await names()).toEqual(['Iron Gym', 'Netflix']);
  }, 180_000);

  it('refuses a missing or unreadable file in a sentence with exit code 2', async () => {
    const missing = await exhale(dir, ['import', path.join(dir, 'nope.csv'), '--all']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Cannot read');
    const unreadable = await exhale(dir, ['import', UNREADABLE, '--all']);
    expect(unreadable.code).toBe(2);
    expect(unreadable.stderr).toContain("Exhale can't find transactions in this file.");
    const none = await exhale(dir, ['import']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('exhale import needs the statement file');
  }, 180_000);

  it('speaks the member’s language, with their dates and decimal comma', async () => {
    const members = await exhale(dir, ['op', 'list_members']);
    const ana = (JSON.parse(members.stdout) as { members: Array<{ id: string }> }).members[0];
    const toSpanish = await exhale(dir, [
      'op',
      'update_member',
      JSON.stringify({ id: ana?.id, language: 'es' }),
    ]);
    expect(toSpanish.code).toBe(0);
    try {
      const dry = await exhale(dir, ['import', statement, '--dry-run']);
      expect(dry.code).toBe(2);
      expect(dry.stdout).toContain('Periodo: lun, 3 nov 2025 – lun, 16 feb 2026');
      expect(dry.stdout).toMatch(/15 movimientos, suma -?\d+,\d\d EUR/);
      expect(dry.stdout).not.toMatch(/\d\.\d\d EUR/);
    } finally {
      await exhale(dir, ['op', 'update_member', JSON.stringify({ id: ana?.id, language: 'en' })]);
    }
  }, 120_000);
});

describe('exhale import FILE: what a newcomer sends first', () => {
  const bank = (file: string) =>
    fileURLToPath(new URL(`../../../shared/fixtures/bank/${file}`, import.meta.url));
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'exhale-import-newcomer-'));
    const init = await exhale(dir, [
      'init',
      '--name',
      'Casa',
      '--currency',
      'EUR',
      '--time-zone',
      'Europe/Dublin',
      '--owner',
      'Ana',
    ]);
    expect(init.code).toBe(0);
  }, 120_000);
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('finds the known services in one-month statements, in the statement’s own currency', async () => {
    const boi = await exhale(dir, [
      'import',
      bank('csv/bank2ynab-IE-BankOfIreland-test_BOI_TransactionExport.csv'),
      '--dry-run',
    ]);
    expect(boi.code).toBe(0);
    expect(boi.stdout).toContain('[1] ✅ Netflix 9.99 EUR · every month');
    // "$8,385.00", month-first dates: the US dollar, not the household's euro.
    const mercury = await exhale(dir, [
      'import',
      bank('pdf/reds_importers-US-Mercury-card-mercury_statement_20241105.pdf'),
      '--dry-run',
    ]);
    expect(mercury.stderr).toBe('');
    expect(mercury.code).toBe(0);
    // 41: its "Fees Charged + $0.00" summary row is no transaction; its credit "-$29.99" (a
    // card's minus) is money in, so the sum is 2 × 29.99 above a reading that took it as a charge.
    expect(mercury.stdout).toContain('41 transactions, sum -1716.77 USD');
    expect(mercury.stdout).toContain('[1] ✅ Amazon Prime 23.52 USD · every month');
    expect(mercury.stdout).not.toContain('Amazon Palo');
  }, 120_000);

  it('says why nothing was found, and asks for the currency of a "$" statement that does not say which', async () => {
    const n26 = await exhale(dir, [
      'import',
      bank('csv/bank2ynab-DE-N26-20171001-20171106.csv'),
      '--dry-run',
    ]);
    expect(n26.code).toBe(0);
    expect(n26.stdout).toContain(
      'Nothing in this statement repeats on a cycle, and no known subscription service appears in it. A longer period (3 months or more) helps.',
    );
    // YNAB's "01/02/2024", "01/05/2024"…: either order parses, and month first keeps them within
    // a week (day first would spread them over six months), so "$" is the US dollar.
    const ynab = await exhale(dir, [
      'import',
      bank('csv/sure-YNAB-register-ynab.csv'),
      '--dry-run',
    ]);
    expect(ynab.code).toBe(0);
    expect(ynab.stdout).toContain('5 transactions, sum 746.18 USD');
    // Day-first dates and "$": any of several dollars, so it asks.
    const dollars = path.join(dir, 'dollars.csv');
    await writeFile(
      dollars,
      'Date,Description,Amount\n15/11/2025,NETFLIX.COM,-$15.99\n15/12/2025,NETFLIX.COM,-$15.99\n',
    );
    const asked = await exhale(dir, ['import', dollars, '--dry-run']);
    expect(asked.code).toBe(2);
    expect(asked.stderr).toContain('The amounts in this statement are in $');
    expect(asked.stderr).toContain('--currency USD');
    const told = await exhale(dir, ['import', dollars, '--dry-run', '--currency', 'aud']);
    expect(told.code).toBe(0);
    expect(told.stdout).toContain('2 transactions, sum -31.98 AUD');
  }, 120_000);

  it('asks again, saying what it accepts, when the answer is not a choice; an empty answer then cancels', async () => {
    const boi = bank('csv/bank2ynab-IE-BankOfIreland-test_BOI_TransactionExport.csv');
    const run = await exhale(dir, ['import', boi], 'abc\n9\n\n');
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain('NaN');
    expect(run.stdout).toContain(
      '"abc" isn\'t a choice. Type numbers from 1 to 1 (such as 1 3), "all" for the ticked ones, or "none"; Enter cancels:',
    );
    expect(run.stdout).toContain('"9" isn\'t a choice.');
    expect(run.stdout).toContain('Nothing imported.');

    const members = await exhale(dir, ['op', 'list_members']);
    const ana = (JSON.parse(members.stdout) as { members: Array<{ id: string }> }).members[0];
    await exhale(dir, ['op', 'update_member', JSON.stringify({ id: ana?.id, language: 'es' })]);
    try {
      const asked = await exhale(dir, ['import', boi], 'nope\nninguna\n');
      expect(asked.code).toBe(0);
      expect(asked.stdout).toContain('Intro para las marcadas, o "ninguna":');
      expect(asked.stdout).toContain('«nope» no es una opción.');
      expect(asked.stdout).toContain('No se ha importado nada.');
    } finally {
      await exhale(dir, ['op', 'update_member', JSON.stringify({ id: ana?.id, language: 'en' })]);
    }
    const listed = await exhale(dir, ['op', 'list_subscriptions']);
    expect((JSON.parse(listed.stdout) as { items: unknown[] }).items).toEqual([]);
  }, 120_000);

  it('imports a known service seen once at its usual cycle, with the one charge as paid', async () => {
    const run = await exhale(dir, [
      'import',
      bank('csv/bank2ynab-UK-JohnLewis-card-MS_JANE_SMITH_01-12-2019_14-12-2019.csv'),
      '--all',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Imported 1 from');
    const listed = await exhale(dir, ['op', 'list_subscriptions']);
    const items = (
      JSON.parse(listed.stdout) as {
        items: Array<{ name: string; currency: string; cycle: { unit: string; every: number } }>;
      }
    ).items;
    expect(items.map((s) => [s.name, s.currency, s.cycle])).toEqual([
      ['Spotify', 'GBP', { unit: 'month', every: 1 }],
    ]);
  }, 60_000);

  it('refuses an OFX whose one date is not a real date, naming it, instead of failing', async () => {
    const run = await exhale(dir, [
      'import',
      bank('ofx/ofxparse-fail_nice-decimal_error.ofx'),
      '--dry-run',
    ]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('date "201120000000"');
    expect(run.stderr).not.toContain('Something went wrong');
  }, 60_000);
});

describe('exhale import FILE from two processes at once', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'exhale-import-twice-'));
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
  }, 120_000);
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('imports one statement once: the other process says it was imported before, and writes nothing', async () => {
    const statement = path.join(dir, 'card.csv');
    await writeFile(statement, FOUR_MONTHS);
    const runs = await Promise.all([
      exhale(dir, ['import', statement, '--all']),
      exhale(dir, ['import', statement, '--all']),
    ]);
    expect(runs.map((r) => r.code).sort()).toEqual([0, 2]);
    const refused = runs.find((r) => r.code === 2);
    // Said when it reads the statement (after the other's import) or when its own import is
    // refused (both read it before either wrote).
    const said = `${refused?.stdout ?? ''}${refused?.stderr ?? ''}`;
    expect(said).toContain('This statement was already imported on');
    expect(said).not.toContain('Something went wrong');
    const listed = await exhale(dir, ['op', 'list_subscriptions']);
    const items = (JSON.parse(listed.stdout) as { items: Array<{ name: string }> }).items;
    expect(items.map((s) => s.name).sort()).toEqual(['Iron Gym', 'Netflix', 'Spotify']);
  }, 120_000);
});
