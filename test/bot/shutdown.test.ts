import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { stopInPhases } from '../../bot/shutdown.ts';
import { householdWithToken, startExhaleProcess } from '../helpers/exhaleProcess.ts';

describe('a graceful stop of the exhale process', () => {
  let dir: string;
  let token: string;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'exhale-stop-'));
    token = await householdWithToken({ EXHALE_DATA_DIR: dir }, 'read');
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answers a request in flight at SIGTERM, takes no new one, and exits 0', async () => {
    const exhale = await startExhaleProcess({ EXHALE_DATA_DIR: dir });
    let inFlight: ReturnType<typeof request> | undefined;
    // An MCP ping whose body is still arriving when the signal comes: a slow request in flight.
    const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${exhale.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
        },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.write('{"jsonrpc":"2.0",');
      inFlight = req;
    });
    // A round trip on another connection: by its answer the server has read the slow one's headers.
    expect((await fetch(`${exhale.url}/healthz`)).status).toBe(200);

    exhale.kill('SIGTERM');
    await exhale.line(/Stopping \(SIGTERM\)/);
    await expect(fetch(`${exhale.url}/healthz`)).rejects.toThrow();
    inFlight?.end('"id":1,"method":"ping"}');

    const reply = await answered;
    expect(reply.status).toBe(200);
    expect(reply.body).toContain('"result":{}');
    expect(await exhale.exited).toEqual({ code: 0, signal: null });
    expect(exhale.output()).toContain('Exhale stopped.');
  }, 60_000);

  it('exits on SIGINT too, with nothing in flight', async () => {
    const exhale = await startExhaleProcess({ EXHALE_DATA_DIR: dir });
    exhale.kill('SIGINT');
    expect(await exhale.exited).toEqual({ code: 0, signal: null });
  }, 60_000);
});

describe('stopInPhases', () => {
  it('closes the database only after the requests have finished', async () => {
    const order: string[] = [];
    let finish: () => void = () => undefined;
    const requests = new Promise<void>((resolve) => (finish = resolve));
    const done = stopInPhases(
      [
        [{ name: 'requests', stop: () => requests.then(() => void order.push('requests')) }],
        [{ name: 'database', stop: async () => void order.push('database') }],
      ],
      { log: () => undefined },
    );
    finish();
    expect(await done).toEqual({ stopped: true, open: [] });
    expect(order).toEqual(['requests', 'database']);
  });

  it('gives up at the bound and names what was still open', async () => {
    const result = await stopInPhases(
      [
        [
          { name: 'channels', stop: async () => undefined },
          { name: 'HTTP requests in flight', stop: () => new Promise<void>(() => undefined) },
        ],
        [{ name: 'database', stop: async () => undefined }],
      ],
      { boundMs: 1, log: () => undefined },
    );
    expect(result).toEqual({ stopped: false, open: ['HTTP requests in flight'] });
  });

  it('goes on past a step that fails, and logs it', async () => {
    const lines: string[] = [];
    const result = await stopInPhases(
      [
        [{ name: 'channels', stop: () => Promise.reject(new Error('gone')) }],
        [{ name: 'database', stop: async () => undefined }],
      ],
      { log: (line) => lines.push(line) },
    );
    expect(result.stopped).toBe(true);
    expect(lines).toEqual(['stop: channels failed']);
  });
});
