import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runExhale, startExhaleProcess } from '../helpers/exhaleProcess.ts';

/**
 * `exhale web` in a shell without EXHALE_PORT, while the server runs on this data directory on
 * another port: the link points at the running server (it writes its address into the data
 * directory), and after a killed server the CLI says the address is dead and falls back.
 */
describe('the CLI finds the running server’s address', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'exhale-address-'));
    const init = await runExhale({ EXHALE_DATA_DIR: dir }, [
      'init',
      '--name',
      'Casa',
      '--currency',
      'EUR',
      '--time-zone',
      'UTC',
      '--owner',
      'Ana',
    ]);
    expect(init.code, init.stderr).toBe(0);
  }, 60_000);
  afterAll(async () => rm(dir, { recursive: true, force: true }));

  const linkOf = (stdout: string): string => /(https?:\/\/\S+)\/app\/\S*/.exec(stdout)?.[1] ?? '';

  it('points exhale web at the server started with another EXHALE_PORT, and forgets it when the server stops', async () => {
    const server = await startExhaleProcess({ EXHALE_DATA_DIR: dir });
    try {
      expect(server.url).not.toBe('http://127.0.0.1:8080');
      const web = await runExhale({ EXHALE_DATA_DIR: dir }, ['web']);
      expect(web.code, web.stderr).toBe(0);
      expect(linkOf(web.stdout)).toBe(server.url);
      expect(web.stderr).toBe('');
    } finally {
      server.kill('SIGTERM');
      await server.exited;
    }
    expect(existsSync(path.join(dir, 'server.json'))).toBe(false);
    const after = await runExhale({ EXHALE_DATA_DIR: dir }, ['web']);
    expect(linkOf(after.stdout)).toBe('http://127.0.0.1:8080');
    expect(after.stderr).toBe('');
  }, 90_000);

  it('after a killed server, says its address does not answer and uses the configured one', async () => {
    const server = await startExhaleProcess({ EXHALE_DATA_DIR: dir });
    server.kill('SIGKILL');
    await server.exited;
    expect(existsSync(path.join(dir, 'server.json'))).toBe(true);
    const web = await runExhale({ EXHALE_DATA_DIR: dir }, ['web']);
    expect(web.code, web.stderr).toBe(0);
    expect(linkOf(web.stdout)).toBe('http://127.0.0.1:8080');
    expect(web.stderr).toContain(`says Exhale runs at ${server.url}, but nothing answers there`);
    // A port set in this shell wins without a word.
    const told = await runExhale({ EXHALE_DATA_DIR: dir, EXHALE_PORT: '9123' }, ['web']);
    expect(linkOf(told.stdout)).toBe('http://127.0.0.1:9123');
    expect(told.stderr).toBe('');
  }, 90_000);
});
