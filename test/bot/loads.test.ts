import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { runExhale, startExhaleProcess } from '../helpers/exhaleProcess.ts';

const HOOKS = pathToFileURL(path.join(import.meta.dirname, '../helpers/loadHooks.mjs')).href;

/** Packages a start or a one-shot command must not load unless it needs them. */
const HEAVY =
  /\/node_modules\/(grammy|@grammyjs\/[^/]+|@slack\/[^/]+|@modelcontextprotocol\/[^/]+|prom-client|@opentelemetry\/[^/]+)\//;

/**
 * What real `exhale` processes load: a one-shot command and a start pay only for what they use
 * (`npm run bench -- start` measures what that saves). Each process records every module it
 * loads (`test/helpers/loadHooks.mjs`).
 */
describe('what an exhale process loads', () => {
  let dir: string;
  let loaded: string;
  let env: Record<string, string>;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'exhale-loads-'));
    loaded = path.join(dir, 'loaded.txt');
    env = {
      EXHALE_DATA_DIR: dir,
      EXHALE_TEST_LOADED_FILE: loaded,
      NODE_OPTIONS: `--import ${HOOKS}`,
    };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** The heavy packages loaded so far, by name. */
  const heavy = (): string[] => {
    if (!existsSync(loaded)) return [];
    const text = readFileSync(loaded, 'utf8');
    return [...new Set(text.split('\n').flatMap((url) => HEAVY.exec(url)?.[1] ?? []))].sort();
  };

  it('exhale op loads neither grammY, Slack, the MCP SDK, prom-client nor OpenTelemetry', async () => {
    const init = await runExhale(env, [
      'init',
      ...['--name', 'Home', '--currency', 'EUR', '--time-zone', 'Europe/Madrid', '--owner', 'Ana'],
    ]);
    expect(init.code).toBe(0);
    rmSync(loaded, { force: true });
    const op = await runExhale(env, ['op', 'get_household']);
    expect(op.code).toBe(0);
    expect(readFileSync(loaded, 'utf8')).toContain('/bot/cli.');
    expect(heavy()).toEqual([]);
  });

  it('a start with nothing configured loads none of them; the first MCP request loads the SDK, the first scrape prom-client', async () => {
    const server = await startExhaleProcess(env);
    try {
      await server.line(/Exhale is running/);
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      expect(heavy()).toEqual([]);
      const mcp = await fetch(`${server.url}/mcp`, { method: 'POST', body: '{}' });
      expect(mcp.status).toBe(401);
      const sdk = (name: string) => name.startsWith('@modelcontextprotocol/');
      expect(heavy()).toContain('@modelcontextprotocol/server');
      expect(heavy().filter((name) => !sdk(name))).toEqual([]);
      const scrape = await fetch(`${server.url}/metrics`);
      expect(await scrape.text()).toContain('exhale_process_resident_memory_bytes');
      expect(heavy().filter((name) => !sdk(name))).toEqual(['prom-client']);
    } finally {
      server.kill('SIGTERM');
      await server.exited;
    }
  });
});
