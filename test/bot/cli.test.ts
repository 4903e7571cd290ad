import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/exhale.mjs', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The `exhale` command as a person runs it, on its own SQLite data directory. */
function run(dataDir: string, args: string[], stdin?: string): Promise<Run> {
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
    child.stdin?.end(stdin ?? '');
  });
}

const exhale = (dataDir: string, ...args: string[]): Promise<Run> => run(dataDir, args);

describe('the exhale command', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'exhale-cli-'));
    const init = await exhale(
      dir,
      'init',
      '--name',
      'Casa',
      '--currency',
      'EUR',
      '--time-zone',
      'Europe/Madrid',
      '--owner',
      'Ana',
    );
    expect(init.code).toBe(0);
  }, 120_000);
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  const count = async (): Promise<number> => {
    const listed = await exhale(dir, 'op', 'list_subscriptions');
    return (JSON.parse(listed.stdout) as { total: number }).total;
  };

  it('runs an op, and with --dry-run shows what it would do without writing', async () => {
    const dry = await exhale(
      dir,
      'op',
      'create_subscription',
      '{"name":"Netflix","amount":"15.99"}',
      '--dry-run',
    );
    expect(dry.code).toBe(0);
    expect(JSON.parse(dry.stdout)).toMatchObject({ dry_run: true, output: { name: 'Netflix' } });
    expect(await count()).toBe(0);
  }, 60_000);

  it('creates a household from a city as its time zone, and refuses in one language, lead and reason', async () => {
    const fresh = await mkdtemp(path.join(tmpdir(), 'exhale-cli-'));
    try {
      const base = ['init', '--name', 'Casa', '--currency', 'EUR', '--owner', 'Ana'];
      const refused = await exhale(fresh, ...base, '--time-zone', 'Atlantis', '--language', 'es');
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/^Esos datos no son válidos:/);
      expect(refused.stderr).not.toMatch(/Check|invalid|input/i);
      const made = await exhale(fresh, ...base, '--time-zone', 'Madrid');
      expect(made.code, made.stderr).toBe(0);
      const household = await exhale(fresh, 'op', 'get_household');
      expect(JSON.parse(household.stdout)).toMatchObject({ time_zone: 'Europe/Madrid' });
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses a mistyped option or a stray argument with the usage and exit code 2, writing nothing', async () => {
    for (const args of [
      ['op', 'create_subscription', '{"name":"Netflix","amount":"15.99"}', '--dryrun'],
      ['op', 'create_subscription', '{"name":"Netflix","amount":"15.99"}', 'dry-run'],
      ['init', '--bogus', '1'],
    ]) {
      const run = await exhale(dir, ...args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toContain('Usage: exhale');
      expect(run.stderr).not.toContain('went wrong');
    }
    expect(await count()).toBe(0);
  }, 60_000);

  it('names a mistyped op before asking anything else, with exit code 2', async () => {
    const run = await exhale(dir, 'op', 'nosuchop');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('There is no op "nosuchop". `npx exhale ops` lists the names.');
    expect(run.stderr).not.toMatch(/household/i);
  }, 60_000);

  it('refuses JSON nested 5,000 deep, as its input or a --document file, with a sentence and exit code 2', async () => {
    const deep = `{"notes":${'['.repeat(5_000)}${']'.repeat(5_000)}}`;
    const input = await exhale(dir, 'op', 'create_subscription', deep);
    expect(input.code).toBe(2);
    expect(input.stderr).toContain('nests more than 64 levels');
    const file = path.join(dir, 'deep.json');
    await writeFile(
      file,
      `{"format":"exhale/1","subscriptions":${'['.repeat(5_000)}${']'.repeat(5_000)}}`,
    );
    const document = await exhale(dir, 'op', 'import_data', '--document', file);
    expect(document.code).toBe(2);
    expect(document.stderr).toContain('The file nests more than 64 levels');
  }, 60_000);

  it("tells an op's error as a sentence with exit code 2", async () => {
    const run = await exhale(dir, 'op', 'create_subscription', '{"name":"Gym","amount":"10.999"}');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('EUR amounts have at most 2 decimals');
  }, 60_000);
});

describe('exhale demo and exhale migrate', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'exhale-cli-'));
  });
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  it('says which migrations it applied to a new database, then that it is up to date', async () => {
    const first = await exhale(dir, 'migrate');
    expect(first.stdout).toMatch(/^Applied \d+ migration\(s\): /);
    expect((await exhale(dir, 'migrate')).stdout).toBe('Database is up to date.\n');
  }, 60_000);

  it('loads the demo household once, and refuses a second copy', async () => {
    expect((await exhale(dir, 'demo')).code).toBe(0);
    const again = await exhale(dir, 'demo');
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('The demo household is already loaded');
    const listed = await exhale(dir, 'op', 'list_subscriptions');
    expect(listed.code).toBe(0);
  }, 60_000);

  it('imports an export from a file with --document, and takes its input from stdin with -', async () => {
    // `exhale op export_data > backup.json`, then import that file as it is.
    const exported = await exhale(dir, 'op', 'export_data');
    const file = path.join(dir, 'backup.json');
    await writeFile(file, exported.stdout);
    const fresh = await mkdtemp(path.join(tmpdir(), 'exhale-cli-'));
    try {
      await exhale(
        fresh,
        'init',
        '--name',
        'B',
        '--currency',
        'EUR',
        '--time-zone',
        'UTC',
        '--owner',
        'Bo',
      );
      const imported = await exhale(fresh, 'op', 'import_data', '--document', file);
      expect(imported.code, imported.stderr).toBe(0);
      expect((JSON.parse(imported.stdout) as { created: number }).created).toBeGreaterThan(10);
      const piped = await run(fresh, ['op', 'list_subscriptions', '-'], '{"limit":1}');
      expect(piped.code, piped.stderr).toBe(0);
      expect((JSON.parse(piped.stdout) as { items: unknown[] }).items).toHaveLength(1);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('commands that act on a household', () => {
  it('never create a database where there is none: they say where they looked', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'exhale-cli-'));
    try {
      for (const args of [['mcp'], ['op', 'list_subscriptions'], ['token', 'list']]) {
        const run = await exhale(dir, ...args);
        expect(run.code, args.join(' ')).toBe(2);
        expect(run.stderr).toContain(`There is no Exhale database at ${dir}/exhale.sqlite`);
      }
      expect(existsSync(path.join(dir, 'exhale.sqlite'))).toBe(false);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('reads a large input from a slow shell pipe with - (it failed with EAGAIN)', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'exhale-cli-'));
    try {
      const init = await exhale(
        dir,
        'init',
        '--name',
        'C',
        '--currency',
        'EUR',
        '--time-zone',
        'UTC',
        '--owner',
        'Ana',
      );
      expect(init.code, init.stderr).toBe(0);
      await slowPipe(dir);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

async function slowPipe(dir: string): Promise<void> {
  // 400 KB of statement, written by another process in 16 KB pieces with pauses between them,
  // through a shell pipe as `cat big.json | exhale op read_statement -` is.
  const rows = Array.from(
    { length: 15000 },
    (_, i) => `2025-0${1 + (i % 9)}-${String(1 + (i % 28)).padStart(2, '0')},SHOP ${i},-1.00`,
  );
  const big = JSON.stringify({
    file_name: 'big.csv',
    content: `Date,Description,Amount\n${rows.join('\n')}\n`,
  });
  expect(big.length).toBeGreaterThan(400_000);
  const input = path.join(dir, 'big.json');
  await writeFile(input, big);
  const writer = path.join(dir, 'slow-writer.mjs');
  await writeFile(
    writer,
    `import { readFileSync } from 'node:fs';
const data = readFileSync(process.argv[2]);
for (let at = 0; at < data.length; at += 16384) {
  await new Promise((done) => process.stdout.write(data.subarray(at, at + 16384), done));
  await new Promise((done) => setTimeout(done, 5));
}
`,
  );
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    EXHALE_DATA_DIR: dir,
    EXHALE_ECB_RATES: 'off',
  };
  delete env.EXHALE_DATABASE_URL;
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const piped = await new Promise<Run>((resolve) => {
    execFile(
      '/bin/sh',
      [
        '-c',
        `${q(process.execPath)} ${q(writer)} ${q(input)} | ${q(process.execPath)} ${q(BIN)} op read_statement -`,
      ],
      { env, timeout: 90_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? Number((error as { code?: unknown }).code ?? 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
  expect(piped.stderr).not.toContain('EAGAIN');
  expect(piped.code, piped.stderr).toBe(0);
  expect((JSON.parse(piped.stdout) as { transactions: { count: number } }).transactions.count).toBe(
    15000,
  );
}
