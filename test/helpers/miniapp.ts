import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import knex from 'knex';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

import { FakeTelegram } from '../fakes/telegramBotApi.ts';
import { runExhale, startExhaleProcess, type ExhaleServer } from './exhaleProcess.ts';

/**
 * The Mini App under test: built once (Vite's JS API, into miniapp/dist, under a lock so test
 * files running side by side build it once), served by a real `exhale` on a fresh demo
 * household whose members have Telegram accounts, and driven by Chromium (playwright-core with
 * Debian's /usr/bin/chromium) at phone size, inside a Telegram environment played by the test
 * (launch parameters in the URL, `TelegramWebviewProxy.postEvent` recorded) or in a plain browser.
 */
const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const APP_ROOT = path.join(REPO, 'miniapp');
const DIST = path.join(APP_ROOT, 'dist');
export const SCREENSHOTS = path.join(REPO, 'test-output', 'miniapp');

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (dir === APP_ROOT && ['dist', 'server', 'node_modules'].includes(entry.name)) continue;
    const full = path.join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(full) : statSync(full).mtimeMs);
  }
  return latest;
}

function upToDate(): boolean {
  const index = path.join(DIST, 'index.html');
  if (!existsSync(index)) return false;
  // The app's texts: every web*.json of each locale (miniapp/src/lib/i18n.ts merges them).
  const texts = ['en', 'es'].flatMap((l) => {
    const dir = path.join(REPO, `core/i18n/locales/${l}`);
    return readdirSync(dir)
      .filter((f) => /^web.*\.json$/.test(f))
      .map((f) => statSync(path.join(dir, f)).mtimeMs);
  });
  return statSync(index).mtimeMs >= Math.max(newest(APP_ROOT), ...texts);
}

/** Builds miniapp/dist unless it is newer than every source (one builder at a time). */
export async function buildApp(): Promise<void> {
  const lock = path.join(tmpdir(), 'exhale-miniapp-build.lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another test file is building: its build is ours too once the lock is gone.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const age = Date.now() - (existsSync(lock) ? statSync(lock).mtimeMs : Date.now());
      if (age > 120_000) rmSync(lock, { recursive: true, force: true });
    }
  }
  try {
    if (upToDate()) return;
    const { build } = await import('vite');
    await build({
      root: APP_ROOT,
      configFile: path.join(APP_ROOT, 'vite.config.ts'),
      logLevel: 'warn',
      mode: 'production',
    });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Telegram's init data for a user, signed with the bot token as Telegram does. */
export function signInitData(
  botToken: string,
  user: { id: number; first_name: string; language_code?: string },
  authDate: Date = new Date(),
): string {
  const params = new URLSearchParams({
    auth_date: String(Math.floor(authDate.getTime() / 1000)),
    query_id: 'AAHdF6IQAAAAAN0XohDhrOrc',
    user: JSON.stringify(user),
    // Telegram's Ed25519 signature for third parties; inside the HMAC like every other field.
    signature: 'dGVzdC1zaWduYXR1cmU',
  });
  const check = [...params.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
  const secret = createHmac('sha256', 'WebAppData').update(botToken).digest();
  params.set('hash', createHmac('sha256', secret).update(check).digest('hex'));
  return params.toString();
}

export type Theme = 'light' | 'dark';
export const THEMES: Record<Theme, Record<string, string>> = {
  light: {
    bg_color: '#ffffff',
    text_color: '#000000',
    hint_color: '#999999',
    link_color: '#2481cc',
    button_color: '#2481cc',
    button_text_color: '#ffffff',
    secondary_bg_color: '#efeff3',
    header_bg_color: '#ffffff',
    accent_text_color: '#2481cc',
    section_bg_color: '#ffffff',
    section_header_text_color: '#6d6d72',
    subtitle_text_color: '#999999',
    destructive_text_color: '#ff3b30',
    bottom_bar_bg_color: '#ffffff',
    section_separator_color: '#e7e7e7',
  },
  dark: {
    bg_color: '#17212b',
    text_color: '#f5f5f5',
    hint_color: '#708499',
    link_color: '#6ab3f3',
    button_color: '#5288c1',
    button_text_color: '#ffffff',
    secondary_bg_color: '#232e3c',
    header_bg_color: '#17212b',
    accent_text_color: '#6ab2f2',
    section_bg_color: '#17212b',
    section_header_text_color: '#6ab3f3',
    subtitle_text_color: '#708499',
    destructive_text_color: '#ec3942',
    bottom_bar_bg_color: '#17212b',
    section_separator_color: '#111921',
  },
};

export interface Household {
  dataDir: string;
  server: ExhaleServer;
  telegram: FakeTelegram;
  /** Member ids of the demo household: Ana (owner, English), Ben (member, Spanish). */
  ana: string;
  ben: string;
  stop(): Promise<void>;
}

export const ANA_TG = { id: 1001, first_name: 'Ana', language_code: 'en' };
export const BEN_TG = { id: 1002, first_name: 'Ben', language_code: 'es' };

/** A fresh demo household served by a real `exhale`, its members linked to Telegram accounts. */
export async function startHousehold(env: Record<string, string> = {}): Promise<Household> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'exhale-miniapp-'));
  const base = { EXHALE_DATA_DIR: dataDir, ...env };
  const demo = await runExhale(base, ['demo']);
  if (demo.code !== 0) throw new Error(`exhale demo failed: ${demo.stderr}`);
  const db = knex({
    client: 'sqlite3',
    connection: { filename: path.join(dataDir, 'exhale.sqlite') },
    useNullAsDefault: true,
  });
  const members = (await db('members').select('id', 'name')) as { id: string; name: string }[];
  const ana = members.find((m) => m.name === 'Ana')?.id ?? '';
  const ben = members.find((m) => m.name === 'Ben')?.id ?? '';
  try {
    // Setup, as the Telegram onboarding would have left it: each member's Telegram account.
    const at = new Date().toISOString();
    await db('member_identities').insert([
      {
        id: `telegram:${ANA_TG.id}`,
        member_id: ana,
        platform: 'telegram',
        external_id: String(ANA_TG.id),
        position: 0,
        created_at: at,
      },
      {
        id: `telegram:${BEN_TG.id}`,
        member_id: ben,
        platform: 'telegram',
        external_id: String(BEN_TG.id),
        position: 0,
        created_at: at,
      },
    ]);
  } finally {
    await db.destroy();
  }
  const telegram = await new FakeTelegram().start();
  const server = await startExhaleProcess({
    ...base,
    EXHALE_TELEGRAM_TOKEN: telegram.token,
    EXHALE_TELEGRAM_API_ROOT: telegram.apiRoot,
  });
  return {
    dataDir,
    server,
    telegram,
    ana,
    ben,
    async stop() {
      server.kill('SIGTERM');
      await server.exited;
      await telegram.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
}

/** What a browser test file drives: its household and its Chromium, once `useMiniApp`'s setup ran. */
export interface MiniAppRig {
  readonly hh: Household;
  readonly browser: Browser;
}

/**
 * A browser test file's usual setup, registered as the file's `beforeAll`/`afterAll`: the app
 * built, a fresh demo household (`startHousehold(env)`) served by a real `exhale`, and one
 * Chromium; both stopped after the file's tests. Call it once at the file's top level and read
 * `.hh` and `.browser` inside the tests (reading them before the setup ran throws, rather than
 * handing a test an undefined household).
 */
export function useMiniApp(env: Record<string, string> = {}): MiniAppRig {
  let hh: Household | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    await buildApp();
    hh = await startHousehold(env);
    browser = await launchBrowser();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await hh?.stop();
  });
  const notYet = (what: string): never => {
    throw new Error(`useMiniApp: ${what} is read before the file's beforeAll ran`);
  };
  return {
    get hh() {
      return hh ?? notYet('the household');
    },
    get browser() {
      return browser ?? notYet('the browser');
    },
  };
}

export interface TgEvent {
  name: string;
  params?: Record<string, unknown>;
}

/**
 * Opens the app as Telegram would: launch parameters in the URL's hash, and the native side
 * played by `TelegramWebviewProxy` (every Mini App method recorded in `window.__tgEvents`;
 * viewport, safe area and theme requests answered).
 */
export async function openInTelegram(
  browser: Browser,
  url: string,
  initData: string,
  theme: Theme,
  appPath = '/app/',
  startParam?: string,
  /** More of the browser's settings (its time zone, `timezoneId`…). */
  options: BrowserContextOptions = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1,
    ...options,
  });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('pageerror', e.message));
  page.on('console', (m) => {
    if (m.type() === 'warning' || m.type() === 'error') console.error('console', m.text());
  });
  // Runs in the page before the app (plain JavaScript: the page has no Node types).
  await page.addInitScript({
    content: `
      window.__tgEvents = [];
      const themeParams = ${JSON.stringify(THEMES[theme])};
      const emit = (name, payload) => setTimeout(() => window.Telegram?.WebView?.receiveEvent(name, payload), 0);
      const insets = { top: 0, bottom: 0, left: 0, right: 0 };
      window.TelegramWebviewProxy = {
        postEvent(name, data) {
          window.__tgEvents.push({ name, params: data ? JSON.parse(data) : undefined });
          if (name === 'web_app_request_viewport')
            emit('viewport_changed', { height: innerHeight, width: innerWidth, is_expanded: true, is_state_stable: true });
          if (name === 'web_app_request_safe_area') emit('safe_area_changed', insets);
          if (name === 'web_app_request_content_safe_area') emit('content_safe_area_changed', insets);
          if (name === 'web_app_request_theme') emit('theme_changed', { theme_params: themeParams });
        },
      };`,
  });
  await page.goto(launchUrl(url, initData, theme, appPath, startParam));
  return page;
}

/** The URL Telegram opens the app at: the launch parameters ride in its hash. */
export function launchUrl(
  url: string,
  initData: string,
  theme: Theme,
  appPath = '/app/',
  startParam?: string,
): string {
  const hash = new URLSearchParams({
    tgWebAppData: initData,
    tgWebAppVersion: '8.0',
    tgWebAppPlatform: 'android',
    tgWebAppThemeParams: JSON.stringify(THEMES[theme]),
    ...(startParam ? { tgWebAppStartParam: startParam } : {}),
  });
  return `${url}${appPath}#${hash.toString()}`;
}

/** The Mini App methods the app has called so far. */
export function tgEvents(page: Page): Promise<TgEvent[]> {
  return page.evaluate('window.__tgEvents') as Promise<TgEvent[]>;
}

/** Telegram tells the app something (a button pressed, the theme changed). */
export async function tgEmit(page: Page, name: string, payload?: unknown): Promise<void> {
  await page.evaluate(
    `window.Telegram.WebView.receiveEvent(${JSON.stringify(name)}, ${JSON.stringify(payload ?? null)})`,
  );
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({
    path: path.join(SCREENSHOTS, `${name}.png`),
    fullPage: false,
    animations: 'disabled',
  });
}

/** Calls an op as a member through the API, with that member's signed init data. */
export async function api<T>(
  url: string,
  initData: string,
  op: string,
  input: unknown = {},
): Promise<T> {
  const response = await fetch(`${url}/api/ops/${op}`, {
    method: 'POST',
    headers: { Authorization: `tma ${initData}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ input }),
  });
  const body = (await response.json()) as { output: T; message?: string };
  if (!response.ok) throw new Error(`${op}: ${response.status} ${body.message ?? ''}`);
  return body.output;
}

/** Waits until a screen is shown and its skeleton has gone (its data has arrived). */
export async function settled(page: Page, screen: string): Promise<void> {
  await page.waitForSelector(`[data-screen="${screen}"]`);
  await page.locator('[data-testid="skeleton"]').waitFor({ state: 'detached' });
}
