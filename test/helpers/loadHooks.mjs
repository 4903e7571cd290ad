// A module hook for child processes in tests (node --import): appends the URL of every module
// loaded through the ESM loader (every package a process imports, CommonJS ones included) to the
// file named by EXHALE_TEST_LOADED_FILE, one per line. Plain JavaScript: it runs before tsx.
import { appendFileSync } from 'node:fs';
import { register } from 'node:module';
import process from 'node:process';

if (process.env.EXHALE_TEST_LOADED_FILE) register('./loadHooks.mjs', import.meta.url);

/** The loader hook (runs on the hooks thread, where this module is registered). */
export async function load(url, context, next) {
  const result = await next(url, context);
  const file = process.env.EXHALE_TEST_LOADED_FILE;
  if (file) appendFileSync(file, `${url}\n`);
  return result;
}
