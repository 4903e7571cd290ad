// The server's JavaScript build (dist/) and the check that it is not older than its sources.
//
// `npm install` builds it (scripts/postinstall.mjs); `bin/exhale.mjs` runs it only while
// `buildIsFresh()` says so and falls back to tsx from source otherwise, so a developer editing a
// file never runs stale JavaScript. Plain JavaScript on purpose: it runs before tsx is loaded.
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';

/** The repository root (this file is in scripts/). */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The folders compiled into dist/; everything the server runs lives in them. */
export const SOURCE_ROOTS = ['core', 'bot', 'mcp', 'miniapp/server'];
/** Files outside those folders that change what the build produces or reads. */
const SOURCE_FILES = [
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/serverBuild.mjs',
  'scripts/bundleServer.mjs',
  // The bundle holds knex, zod and hono (scripts/bundleServer.mjs): another version installed
  // changes what it should hold.
  'package-lock.json',
];
/** Where the stamp of the sources a build was made from is written, inside the build. */
const STAMP = '.sources.json';
/** What `exhale` runs of a build: the bundle of bot/cli.js (scripts/bundleServer.mjs). */
export const BUILD_ENTRY = 'bundle/cli.js';

function walk(root, dir, out) {
  // A source folder a checkout does not have (a project built in a test) has nothing to add.
  if (!statSync(join(root, dir), { throwIfNoEntry: false })?.isDirectory()) return;
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(root, path, out);
    else if (entry.isFile()) out.push(path);
  }
}

/**
 * Every source file with its modification time and size, in a stable order: a file edited, added,
 * removed or renamed changes it. Cheap (a few hundred `stat` calls), so it runs at every start.
 */
export function sourceStamp(root = ROOT) {
  const files = [];
  for (const dir of SOURCE_ROOTS) walk(root, dir, files);
  files.push(...SOURCE_FILES);
  files.sort();
  const stamp = {};
  for (const file of files) {
    const stat = statSync(join(root, file), { throwIfNoEntry: false });
    // Whole seconds: an image layer (Docker's tar) may keep only those, and a build copied into
    // one must still count as fresh. Size and second together still catch a developer's edit.
    if (stat) stamp[file.split('\\').join('/')] = `${Math.trunc(stat.mtimeMs / 1000)}:${stat.size}`;
  }
  return stamp;
}

/** True when `dist/` holds a complete build of exactly the sources there are now. */
export function buildIsFresh(root = ROOT) {
  let recorded;
  try {
    recorded = readFileSync(join(root, 'dist', STAMP), 'utf8');
  } catch {
    return false;
  }
  return recorded === JSON.stringify(sourceStamp(root));
}

/** True when there is a build at all (fresh or not). */
export function buildExists(root = ROOT) {
  return statSync(join(root, 'dist', STAMP), { throwIfNoEntry: false }) !== undefined;
}

/**
 * Compiles core/, bot/ and mcp/ to dist/ with tsc (`rewriteRelativeImportExtensions`, no type
 * check: that is `npm run typecheck`'s job), copies the JSON files read at run time (locales),
 * writes dist/package.json (what mcp/identity.ts reads as `../package.json`) and bundles the
 * compiled modules into dist/bundle/ (`BUILD_ENTRY`, what `exhale` runs: a start reads a few
 * files instead of hundreds; the compiled modules stay beside it, for the files they find). The build is
 * made in a temporary folder and moved into place whole, so a start never sees half of one.
 * Throws with a one-line message when it cannot build.
 */
export function buildServer(root = ROOT) {
  const stamp = sourceStamp(root); // before compiling: an edit during the build makes it stale
  let tsc;
  try {
    tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    throw new Error('TypeScript is not installed (npm install --omit=dev)');
  }
  const temporary = join(root, `dist.building-${process.pid}`);
  rmSync(temporary, { recursive: true, force: true });
  try {
    const result = spawnSync(
      process.execPath,
      [tsc, '-p', join(root, 'tsconfig.build.json'), '--noCheck', '--outDir', temporary],
      { cwd: root, encoding: 'utf8' },
    );
    if (result.status !== 0) {
      const first = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n')[0];
      throw new Error(`tsc failed: ${first || `exit ${result.status ?? result.signal}`}`);
    }
    const bundled = spawnSync(
      process.execPath,
      [fileURLToPath(new URL('./bundleServer.mjs', import.meta.url)), temporary],
      { cwd: root, encoding: 'utf8' },
    );
    if (bundled.status !== 0) {
      const first = `${bundled.stderr ?? ''}`.trim().split('\n')[0];
      throw new Error(`bundling failed: ${first || `exit ${bundled.status ?? bundled.signal}`}`);
    }
    for (const dir of SOURCE_ROOTS) {
      const files = [];
      walk(root, dir, files);
      // Files the code reads at run time (locales, the Slack manifest…) travel beside the build.
      for (const file of files.filter((f) => !f.endsWith('.ts'))) {
        mkdirSync(join(temporary, relative('.', join(file, '..'))), { recursive: true });
        cpSync(join(root, file), join(temporary, file));
      }
    }
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    const { name, version, description } = pkg;
    writeFileSync(
      join(temporary, 'package.json'),
      `${JSON.stringify({ name, version, description, private: true, type: 'module' }, null, 2)}\n`,
    );
    writeFileSync(join(temporary, STAMP), JSON.stringify(stamp));
    keepPreviousChunks(join(root, 'dist', 'bundle'), join(temporary, 'bundle'));
    // Moved aside, then away: the window in which dist/ is missing is two renames long.
    const previous = join(root, `dist.previous-${process.pid}`);
    const hadBuild = statSync(join(root, 'dist'), { throwIfNoEntry: false }) !== undefined;
    if (hadBuild) renameSync(join(root, 'dist'), previous);
    renameSync(temporary, join(root, 'dist'));
    if (hadBuild) rmSync(previous, { recursive: true, force: true });
  } finally {
    rmSync(temporary, { recursive: true, force: true });
  }
}

/** The list, inside a bundle folder, of the chunks it kept from the build before it. */
const KEPT = '.kept-chunks.json';

/**
 * Copies into the new bundle every chunk of the old one it does not have itself, except those the
 * old one had kept in turn: a server started from the old build loads chunks lazily (the MCP SDK's
 * with the first MCP request, grammY's…), and must still find them after a rebuild under it (an
 * `npm run build` after an edit while it runs). One generation back is kept, never more.
 */
function keepPreviousChunks(oldBundle, newBundle) {
  let names;
  try {
    names = readdirSync(oldBundle);
  } catch {
    return;
  }
  let inherited = [];
  try {
    inherited = JSON.parse(readFileSync(join(oldBundle, KEPT), 'utf8'));
  } catch {
    // No list: a build before this one kept nothing.
  }
  const fresh = new Set(readdirSync(newBundle));
  const kept = names.filter(
    (name) => name.endsWith('.js') && !fresh.has(name) && !inherited.includes(name),
  );
  for (const name of kept) cpSync(join(oldBundle, name), join(newBundle, name));
  writeFileSync(join(newBundle, KEPT), JSON.stringify(kept));
}
