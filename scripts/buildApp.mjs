// Builds the Mini App (miniapp/) into miniapp/dist with Vite's JS API, from miniapp/vite.config.ts.
// Skips the build when miniapp/dist/index.html is newer than every source file, so running it on
// every install (postinstall) or start costs a directory walk. `node scripts/buildApp.mjs` builds
// (add --force to build even when up to date); `buildApp()` is what `exhale` calls on start when
// the app was never built. Exits 0 when there is no app to build (no miniapp/vite.config.ts).
import console from 'node:console';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const APP_ROOT = path.join(repo, 'miniapp');
export const APP_DIST = path.join(APP_ROOT, 'dist');

/** Newest modification time (ms) of the app's sources: everything under miniapp/ but dist, server, node_modules. */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (dir === APP_ROOT && ['dist', 'server', 'node_modules'].includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** Whether miniapp/dist is at least as new as its sources. */
export function appUpToDate(root = APP_ROOT) {
  const index = path.join(root, 'dist', 'index.html');
  if (!existsSync(index)) return false;
  return statSync(index).mtimeMs >= newestSource(root);
}

/**
 * Builds the app unless it is up to date. Resolves to what happened: `built`, `up-to-date`, or
 * `no-app` (no miniapp/vite.config.ts in this checkout). A failed build rejects.
 */
export async function buildApp({ root = APP_ROOT, force = false, logLevel = 'warn' } = {}) {
  const configFile = path.join(root, 'vite.config.ts');
  if (!existsSync(configFile)) return 'no-app';
  if (!force && appUpToDate(root)) return 'up-to-date';
  const { build } = await import('vite');
  await build({ root, configFile, logLevel, mode: 'production' });
  return 'built';
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const force = process.argv.includes('--force');
  try {
    const result = await buildApp({ force, logLevel: 'info' });
    if (result === 'no-app')
      console.log('exhale: no Mini App to build (miniapp/vite.config.ts is missing)');
    else if (result === 'up-to-date')
      console.log('exhale: the Mini App is up to date (miniapp/dist)');
    else console.log('exhale: built the Mini App into miniapp/dist');
  } catch (error) {
    console.error(
      'exhale: building the Mini App failed:',
      error instanceof Error ? error.message : error,
    );
    process.exitCode = 1;
  }
}
