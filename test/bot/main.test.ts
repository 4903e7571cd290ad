import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { loadConfig } from '../../bot/config.ts';
import { type RunningExhale, startExhale } from '../../bot/main.ts';
import { FakeTelegram } from '../fakes/telegramBotApi.ts';

/** A port nothing listens on right now (the public URL must name it before Exhale starts). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('The primary process on its HTTP edge', () => {
  let dir: string;
  let tg: FakeTelegram;
  let exhale: RunningExhale;
  let base: string;
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'exhale-main-'));
    tg = await new FakeTelegram().start();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    exhale = await startExhale(
      loadConfig({
        EXHALE_DATA_DIR: dir,
        EXHALE_PORT: String(port),
        // A public URL with a path: Telegram posts under it, through a proxy that keeps the prefix.
        EXHALE_PUBLIC_URL: `${base}/exhale`,
        EXHALE_TELEGRAM_TOKEN: tg.token,
        EXHALE_TELEGRAM_API_ROOT: tg.apiRoot,
        EXHALE_ECB_RATES: 'off',
      }),
      { quiet: true },
    );
  });
  afterEach(async () => {
    await exhale.stop();
    await tg.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves /healthz, MCP and the Telegram webhook from their route groups', async () => {
    const health = await fetch(`${base}/healthz`);
    expect(await health.json()).toEqual({ ok: true });
    expect(health.headers.get('x-request-id')).toBeTruthy();

    const mcp = await fetch(`${base}/mcp`, { method: 'POST', body: '{}' });
    expect(mcp.status).toBe(401);
    expect(mcp.headers.get('www-authenticate')).toContain('Bearer');
    expect((await fetch(`${base}/llms.txt`)).status).toBe(200);

    expect(tg.webhookUrl).toBe(`${base}/exhale/telegram/webhook`);
    const ana = tg.user(1001, 'Ana', 'en');
    await tg.sendText(ana, '/start');
    const replies = await tg.waitForMessages(ana.id, 1);
    expect(replies.length).toBeGreaterThan(0);
    expect(tg.webhookStatuses.every((status) => status === 200)).toBe(true);
  });
});
