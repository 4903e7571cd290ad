import { createHmac } from 'node:crypto';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { createEdge, type Edge } from '../../../bot/http/app.ts';
import type { Core } from '../../../core/kernel/core.ts';
import {
  createMiniApp,
  IMPORT_UPLOAD_LIMITS,
  type MiniApp,
} from '../../../miniapp/server/index.ts';

export const BOT_TOKEN = '123456:TEST-token_for-initData';

/** Signs init data as Telegram does (independently of the server's checker). */
export function signInitData(
  fields: { user: { id: number; first_name?: string; language_code?: string }; authDate: Date },
  botToken = BOT_TOKEN,
): string {
  const params = new URLSearchParams({
    auth_date: String(Math.floor(fields.authDate.getTime() / 1000)),
    chat_instance: '42',
    chat_type: 'sender',
    user: JSON.stringify({ first_name: 'Ana', ...fields.user }),
  });
  const check = [...params.entries()]
    .map(([k, v]) => `${k}=${v}`)
    .sort()
    .join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(botToken).digest();
  params.set('hash', createHmac('sha256', secret).update(check).digest('hex'));
  return params.toString();
}

/** A small built app made by the test, standing in for miniapp/dist. */
export function fakeAppDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'exhale-app-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/app/assets/main-abc123.js"></script></head><body><div id="app">Exhale app</div></body></html>',
  );
  writeFileSync(path.join(dir, 'assets', 'main-abc123.js'), 'console.log("exhale");');
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

export interface Served {
  edge: Edge;
  miniApp: MiniApp;
  /** A request to the edge, in process (no socket): `path` is absolute (`/api/me`). */
  request(pathname: string, init?: RequestInit): Promise<Response>;
}

/** The edge with the Mini App's groups mounted as bot/main.ts mounts them. */
export function serve(
  core: Core,
  options: { publicUrl?: string; appDir?: string; maxAge?: number; noBot?: boolean } = {},
): Served {
  const edge = createEdge({ log: () => {}, largerBodies: IMPORT_UPLOAD_LIMITS });
  const miniApp = createMiniApp({
    core,
    botToken: options.noBot ? undefined : BOT_TOKEN,
    publicUrl: options.publicUrl,
    appDir: options.appDir ?? fakeAppDir(),
    initDataMaxAgeSeconds: options.maxAge,
    log: () => {},
  });
  edge.mount('/api', miniApp.api);
  edge.mount('/app', miniApp.app);
  edge.mount('/cal', miniApp.calendar);
  const origin = options.publicUrl ? new URL(options.publicUrl).origin : 'http://localhost';
  return {
    edge,
    miniApp,
    request: (pathname, init) => Promise.resolve(edge.app.request(`${origin}${pathname}`, init)),
  };
}

/** Links a member to a Telegram account (as /start would have). */
export async function linkTelegram(
  core: Core,
  memberId: string,
  telegramId: number,
): Promise<void> {
  await core.db.knex('member_identities').insert({
    id: `telegram:${telegramId}`,
    member_id: memberId,
    platform: 'telegram',
    external_id: String(telegramId),
    position: 0,
    created_at: '2026-03-01T00:00:00.000Z',
  });
}

/** Headers of a request from inside Telegram for that user. */
export function tma(initData: string, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `tma ${initData}`, 'content-type': 'application/json', ...extra };
}

/** POSTs JSON. */
export function post(body: unknown, headers: Record<string, string>): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

/**
 * A response's JSON for assertions. Typed loosely on purpose: the assertions check the shape, and
 * spelling every body's type in the tests would only repeat them.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above: bodies are checked by assertions
export type JsonBody = any;
export async function json(res: Response): Promise<JsonBody> {
  return res.json();
}
