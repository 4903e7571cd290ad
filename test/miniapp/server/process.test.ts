import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { runExhale, startExhaleProcess, type ExhaleServer } from '../../helpers/exhaleProcess.ts';
import { fakeAppDir } from './harness.ts';

/** A real `exhale` process on a fresh SQLite file, as a newcomer starts it. */
describe('a real exhale process serves the Mini App', () => {
  let dir: string;
  let server: ExhaleServer | null = null;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'exhale-web-'));
  });
  afterEach(async () => {
    if (server) {
      server.kill('SIGTERM');
      await server.exited;
      server = null;
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('says where the app is, serves /app/, and signs in with the link `exhale web` prints', async () => {
    const env = { EXHALE_DATA_DIR: dir, EXHALE_MINIAPP_DIST: fakeAppDir() };
    const init = await runExhale(env, [
      'init',
      ...['--name', 'Home', '--currency', 'EUR', '--time-zone', 'Europe/Madrid', '--owner', 'Ana'],
    ]);
    expect(init.code).toBe(0);
    server = await startExhaleProcess(env);
    expect(server.output()).toContain(`App:      ${server.url}/app/`);
    expect(server.output()).toContain('exhale web');

    const app = await fetch(`${server.url}/app/subscriptions`);
    expect(app.status).toBe(200);
    expect(await app.text()).toContain('Exhale app');
    expect((await fetch(`${server.url}/api/me`)).status).toBe(401);

    const port = new URL(server.url).port;
    const web = await runExhale({ ...env, EXHALE_PORT: port, EXHALE_HOST: '127.0.0.1' }, ['web']);
    expect(web.code).toBe(0);
    const link = web.stdout.match(/http:\/\/\S+\/app\/signin\?code=[0-9a-z]+/)?.[0];
    expect(link?.startsWith(`${server.url}/app/signin?code=`)).toBe(true);
    const code = new URL(link ?? '').searchParams.get('code');
    const session = await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    expect(session.status).toBe(200);
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const me = await fetch(`${server.url}/api/me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({
      member: { name: 'Ana', role: 'owner' },
      household: { name: 'Home' },
    });
  });

  it("shows on an open screen's live stream a change another exhale process made (the CLI beside the server)", async () => {
    const env = { EXHALE_DATA_DIR: dir, EXHALE_MINIAPP_DIST: fakeAppDir() };
    const init = await runExhale(env, [
      'init',
      ...['--name', 'Home', '--currency', 'EUR', '--time-zone', 'Europe/Madrid', '--owner', 'Ana'],
    ]);
    expect(init.code).toBe(0);
    server = await startExhaleProcess(env);
    const port = new URL(server.url).port;
    const web = await runExhale({ ...env, EXHALE_PORT: port, EXHALE_HOST: '127.0.0.1' }, ['web']);
    const code = /signin\?code=([0-9a-z]+)/.exec(web.stdout)?.[1];
    const session = await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code }),
    });
    const cookie = (session.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const stream = await fetch(`${server.url}/api/events`, { headers: { cookie } });
    expect(stream.status).toBe(200);
    const body = stream.body?.getReader();
    if (!body) throw new Error('no stream');
    const decoder = new TextDecoder();
    let text = '';
    const until = async (pattern: RegExp): Promise<void> => {
      while (!pattern.test(text)) {
        const { value, done } = await body.read();
        if (done) throw new Error(`the stream ended before ${String(pattern)}: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
    };
    await until(/: open/);
    const created = await runExhale(env, ['op', 'create_tag', '{"name":"from the CLI"}']);
    expect(created.code).toBe(0);
    await until(/"op":"create_tag"/);
    await body.cancel();
  });

  it('without a built app, keeps the API up and answers /app/ with a 503 page that says so', async () => {
    server = await startExhaleProcess({
      EXHALE_DATA_DIR: dir,
      EXHALE_MINIAPP_DIST: path.join(dir, 'no-app'),
    });
    const res = await fetch(`${server.url}/app/`);
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('not available');
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
