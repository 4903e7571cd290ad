import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runBuildSteps } from '../../scripts/postinstall.mjs';
import { BUILD_ENTRY, buildExists, buildIsFresh, buildServer } from '../../scripts/serverBuild.mjs';

const REPO = fileURLToPath(new URL('../..', import.meta.url));

/** A small project laid out as Exhale is: what the build must compile, copy and find at run time. */
const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ name: 'tiny', version: '1.2.3', type: 'module' }),
  'core/i18n/locales/en/tiny.json': JSON.stringify({ 'tiny.hello': 'Hello' }),
  'core/i18n/index.ts': `import { readFileSync } from 'node:fs';
export const texts = JSON.parse(
  readFileSync(new URL('./locales/en/tiny.json', import.meta.url), 'utf8'),
) as Record<string, string>;
`,
  'mcp/identity.ts': `import { readFileSync } from 'node:fs';
export const version = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
`,
  'bot/cli.ts': `import { texts } from '../core/i18n/index.ts';
const { version } = await import('../mcp/identity.ts');
console.log(\`\${texts['tiny.hello']} \${version}\`);
`,
};

function write(root: string, file: string, text: string): void {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
}

/** Runs what `exhale` runs of a build: the bundle (or, given, one compiled module). */
function runBuilt(root: string, entry = BUILD_ENTRY): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [join(root, 'dist', entry)], (error, stdout) =>
      error ? reject(error) : resolve(stdout.trim()),
    );
  });
}

describe('the server build (scripts/serverBuild.mjs)', () => {
  let root = '';
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'exhale-build-'));
    for (const [file, text] of Object.entries(FILES)) write(root, file, text);
    copyFileSync(join(REPO, 'tsconfig.json'), join(root, 'tsconfig.json'));
    copyFileSync(join(REPO, 'tsconfig.build.json'), join(root, 'tsconfig.build.json'));
    symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('compiles to JavaScript that runs with node alone, finding its JSON files and package.json', async () => {
    expect(buildExists(root)).toBe(false);
    expect(buildIsFresh(root)).toBe(false);
    buildServer(root);
    expect(buildIsFresh(root)).toBe(true);
    expect(await runBuilt(root, 'bot/cli.js')).toBe('Hello 1.2.3');
  });

  it('bundles it into a few files that find the same JSON files, a dynamic import kept as its own chunk', async () => {
    buildServer(root);
    // The locale is found beside core/i18n's compiled module, not beside the bundle.
    expect(await runBuilt(root)).toBe('Hello 1.2.3');
    const bundle = readdirSync(join(root, 'dist', dirname(BUILD_ENTRY)));
    // bot/cli.js and mcp/identity.js (imported dynamically): the entry and one chunk.
    expect(bundle.filter((name) => name.endsWith('.js'))).toHaveLength(2);
  });

  it('gives the same chunk names for the same sources, whatever folder it was built in', () => {
    buildServer(root);
    const first = readdirSync(join(root, 'dist', 'bundle')).sort();
    buildServer(root);
    expect(readdirSync(join(root, 'dist', 'bundle')).sort()).toEqual(first);
  });

  it('is not built again by the install steps while it is fresh (npx exhale runs them too)', async () => {
    buildServer(root);
    const stamp = statSync(join(root, 'dist', '.sources.json')).mtimeMs;
    const lines: string[] = [];
    const results = await runBuildSteps(root, (line: string) => lines.push(line));
    expect(results).toEqual({
      'server (dist/)': 'up-to-date',
      'Mini App (miniapp/dist/)': 'no-app',
    });
    expect(lines).toEqual(['exhale: the server (dist/) is up to date']);
    expect(statSync(join(root, 'dist', '.sources.json')).mtimeMs).toBe(stamp);
    write(root, 'core/extra.ts', 'export const extra = 2;\n');
    expect((await runBuildSteps(root, () => {}))['server (dist/)']).toBe('built');
    rmSync(join(root, 'core/extra.ts'));
  });

  it('is stale once a source file is edited, and fresh again after a rebuild', () => {
    buildServer(root);
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'core/i18n/index.ts'), later, later);
    expect(buildExists(root)).toBe(true);
    expect(buildIsFresh(root)).toBe(false);
    buildServer(root);
    expect(buildIsFresh(root)).toBe(true);
  });

  it('stays fresh when its files are copied with whole-second times (an image layer keeps only those)', () => {
    buildServer(root);
    const file = join(root, 'core/i18n/index.ts');
    const seconds = Math.trunc(statSync(file).mtimeMs / 1000);
    utimesSync(file, seconds, seconds);
    expect(buildIsFresh(root)).toBe(true);
  });

  it('is stale once a source file is added or removed', () => {
    buildServer(root);
    write(root, 'core/extra.ts', 'export const extra = 1;\n');
    expect(buildIsFresh(root)).toBe(false);
    buildServer(root);
    expect(buildIsFresh(root)).toBe(true);
    rmSync(join(root, 'core/extra.ts'));
    expect(buildIsFresh(root)).toBe(false);
  });

  it('is stale when a locale file or package.json changes', () => {
    buildServer(root);
    write(root, 'core/i18n/locales/en/tiny.json', JSON.stringify({ 'tiny.hello': 'Hi there' }));
    expect(buildIsFresh(root)).toBe(false);
    buildServer(root);
    write(
      root,
      'package.json',
      JSON.stringify({ name: 'tiny', version: '1.2.40', type: 'module' }),
    );
    expect(buildIsFresh(root)).toBe(false);
  });

  it('leaves the previous build in place when tsc fails, and says why in one line', () => {
    buildServer(root);
    writeFileSync(join(root, 'tsconfig.build.json'), '{ "extends": "./missing.json" }');
    expect(() => buildServer(root)).toThrow(/^tsc failed: .+$/);
    expect(buildExists(root)).toBe(true);
    copyFileSync(join(REPO, 'tsconfig.build.json'), join(root, 'tsconfig.build.json'));
  });
});

describe('a rebuild under a running server', () => {
  let root = '';
  /** The entry waits for a line on stdin before it loads its lazy chunk, as a server does. */
  const lazy = (word: string) => `export const word = '${word}';\n`;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'exhale-rebuild-'));
    write(root, 'package.json', JSON.stringify({ name: 'lazy', version: '1.0.0', type: 'module' }));
    write(
      root,
      'bot/cli.ts',
      `process.stdin.once('data', async () => {
  const { word } = await import('../mcp/lazy.ts');
  console.log(word);
  process.exit(0);
});
console.log('ready');
`,
    );
    write(root, 'mcp/lazy.ts', lazy('first'));
    copyFileSync(join(REPO, 'tsconfig.json'), join(root, 'tsconfig.json'));
    copyFileSync(join(REPO, 'tsconfig.build.json'), join(root, 'tsconfig.build.json'));
    symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** Starts the built bundle; resolves once it said it is ready, with a way to make it load. */
  async function startBuilt(): Promise<{ load(): Promise<string> }> {
    const child = spawn(process.execPath, [join(root, 'dist', BUILD_ENTRY)], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (out += chunk));
    while (!out.includes('ready')) await once(child.stdout, 'data');
    return {
      async load() {
        child.stdin.write('go\n');
        const [code] = (await once(child, 'exit')) as [number | null];
        if (code !== 0) throw new Error(`the built process exited with ${code}`);
        return out.replace('ready', '').trim();
      },
    };
  }

  it('leaves the chunks a process started from the old build still has to load', async () => {
    buildServer(root);
    const running = await startBuilt();
    write(root, 'mcp/lazy.ts', lazy('second'));
    buildServer(root);
    expect(await running.load()).toBe('first');
    expect(await (await startBuilt()).load()).toBe('second');
  });

  it('keeps one build back, not more', () => {
    const bundle = join(root, 'dist', 'bundle');
    const chunks = () => readdirSync(bundle).filter((n) => n.endsWith('.js') && n !== 'cli.js');
    /** The chunk the last build made itself (not one it kept). */
    const own = (): string => {
      const kept = JSON.parse(readFileSync(join(bundle, '.kept-chunks.json'), 'utf8')) as string[];
      const [chunk, ...more] = chunks().filter((name) => !kept.includes(name));
      if (chunk === undefined || more.length > 0) throw new Error('one own chunk expected');
      return chunk;
    };
    write(root, 'mcp/lazy.ts', lazy('one'));
    buildServer(root);
    const one = own();
    write(root, 'mcp/lazy.ts', lazy('two'));
    buildServer(root);
    const two = own();
    expect(chunks().sort()).toEqual([one, two].sort());
    write(root, 'mcp/lazy.ts', lazy('three'));
    buildServer(root);
    expect(chunks().sort()).toEqual([two, own()].sort());
  });
});
