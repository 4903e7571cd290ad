import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ExhaleServer, runExhale, startExhaleProcess } from '../helpers/exhaleProcess.ts';
import { buildApp, launchBrowser, screenshot, settled } from '../helpers/miniapp.ts';
import { openSharedTestDatabase, type SharedTestDatabase } from '../helpers/sharedDatabase.ts';

/**
 * A household on a server with neither Telegram nor Slack, made with `exhale init` (brand new,
 * no ECB rates), served by two real `exhale` processes on one database (a SQLite file, or a
 * PostgreSQL schema when EXHALE_TEST_DATABASE_URL is set), in Chromium at 390 px: the owner's
 * empty screens say what works here (the app's own Add, a /add that works); Settings lists no
 * rate of the household's currency against itself; the invite gives a web link, and a person with
 * only a browser opens it, gives a name and is signed in as a new member, through either process;
 * a used code is refused on the other one, and of two joins at the same moment with one code,
 * one gets in.
 */
let shared: SharedTestDatabase;
let env: Record<string, string>;
let a: ExhaleServer;
let b: ExhaleServer;
let browser: Browser;

beforeAll(async () => {
  await buildApp();
  shared = await openSharedTestDatabase();
  if (shared.dialect === 'sqlite') {
    env = { EXHALE_DATA_DIR: (shared.sqliteFile ?? '').replace(/\/exhale\.sqlite$/, '') };
  } else {
    const url = new URL(shared.url ?? '');
    url.searchParams.set('options', `-c search_path=${shared.schema ?? ''}`);
    env = { EXHALE_DATABASE_URL: url.toString() };
  }
  const init = await runExhale(env, [
    'init',
    ...['--name', 'Home', '--currency', 'EUR', '--time-zone', 'Europe/Madrid', '--owner', 'Ana'],
  ]);
  expect(init.code, init.stderr).toBe(0);
  [a, b] = await Promise.all([startExhaleProcess(env), startExhaleProcess(env)]);
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  for (const server of [a, b]) {
    server?.kill('SIGTERM');
    await server?.exited;
  }
  await shared?.close();
});

async function op<T>(name: string, input: unknown = {}): Promise<T> {
  const run = await runExhale(env, ['op', name, JSON.stringify(input), '--as', 'Ana']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as T;
}

const memberNames = async (): Promise<string[]> =>
  (await op<{ members: { name: string }[] }>('list_members')).members.map((m) => m.name).sort();

async function browserAt(locale: string): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1,
    locale,
  });
}

/** Ana signed in on process a through a sign-in link, in a fresh browser. */
async function anaSignedIn(): Promise<Page> {
  const { path } = await op<{ path: string }>('create_sign_in_link');
  const page = await (await browserAt('en-GB')).newPage();
  await page.goto(`${a.url}${path}`);
  await settled(page, 'overview');
  return page;
}

/** An invite's web link, as the owner's Settings shows it. */
async function inviteLink(page: Page): Promise<string> {
  await page.goto(`${a.url}/app/settings`);
  await settled(page, 'settings');
  await page.click('[data-testid="invite"]');
  return (await page.locator('[data-testid="invite-web-link"]').textContent()) ?? '';
}

/** Opens a join link on a server (the link's own host replaced) and fills in the name. */
async function openJoin(link: string, server: ExhaleServer, locale: string, name: string) {
  const page = await (await browserAt(locale)).newPage();
  const url = new URL(link);
  await page.goto(`${server.url}${url.pathname}${url.search}`);
  await page.locator('[data-testid="join-form"]').waitFor();
  await page.fill('[data-testid="join-name"]', name);
  return page;
}

describe('joining with only a browser, on a server without Telegram or Slack (Chromium)', () => {
  it("shows the owner's empty screens with what works here, and no rate of the euro against itself", async () => {
    const page = await anaSignedIn();
    const empty = page.locator('[data-testid="empty"]');
    const overview = (await empty.textContent()) ?? '';
    expect(overview).toContain('/add Netflix 15.99 monthly');
    expect(overview).not.toMatch(/\bbot\b/);
    // The app's own Add comes first.
    expect((await empty.locator('button').first().textContent())?.trim()).toBe(
      'Add a subscription',
    );
    await screenshot(page, 'empty-overview-en-light');

    await page.goto(`${a.url}/app/insights`);
    await settled(page, 'insights');
    expect(await page.textContent('[data-testid="empty"]')).toContain('Nothing to analyse yet');
    expect(await page.locator('[data-testid="insights-table"]').count()).toBe(0);
    await screenshot(page, 'empty-insights-en-light');

    await page.goto(`${a.url}/app/settings`);
    await settled(page, 'settings');
    expect(await page.locator('[data-testid="rate-row"]').count()).toBe(0);
    expect(await page.textContent('[data-testid="rates-none"]')).toContain('only its own currency');
    await page.context().close();
  }, 60_000);

  it('gives a web link to join; a newcomer gives a name and is signed in; the code then works nowhere', async () => {
    const owner = await anaSignedIn();
    const link = await inviteLink(owner);
    expect(link).toMatch(/\/app\/join\?code=join_\w+$/);
    const hint = (await owner.textContent('[data-testid="invite-hint"]')) ?? '';
    expect(hint).toContain('In any browser');
    // Neither Telegram nor Slack on this server: no instructions for them.
    expect(await owner.locator('[data-testid="invite-telegram"]').count()).toBe(0);
    expect(await owner.locator('[data-testid="invite-slack"]').count()).toBe(0);
    expect(hint).not.toContain('/start');
    await owner.locator('[data-testid="invite-qr"]').waitFor();
    await owner.locator('[data-testid="invite-hint"]').scrollIntoViewIfNeeded();
    await screenshot(owner, 'invite-web-en-light');

    // The owner's own browser is told it is signed in already, rather than joining twice.
    const url = new URL(link);
    await owner.goto(`${a.url}${url.pathname}${url.search}`);
    await owner.locator('[data-testid="join-signed-in"]').waitFor();
    expect(await owner.textContent('[data-testid="join-signed-in"]')).toContain('Ana (Home)');
    await owner.context().close();

    // Zoe, in Spanish, through the other process.
    const zoe = await openJoin(link, b, 'es-ES', 'Zoe');
    expect(await zoe.textContent('h1')).toBe('Únete a un hogar en Exhale');
    await screenshot(zoe, 'join-es-light');
    await zoe.click('[data-testid="join-submit"]');
    await settled(zoe, 'overview');
    await zoe.locator('[data-testid="toast"]').waitFor();
    expect(await zoe.textContent('[data-testid="toast"]')).toContain(
      'Te damos la bienvenida a Home.',
    );
    expect(await memberNames()).toEqual(['Ana', 'Zoe']);
    // Signed in as Zoe: Settings lists her browser by its name, marked as this one.
    await zoe.goto(`${b.url}/app/settings`);
    await settled(zoe, 'settings');
    expect(await zoe.textContent('[data-testid="session-name"]')).toContain('Chrome en Linux');
    await screenshot(zoe, 'joined-settings-es-light');
    await zoe.context().close();

    // The same link again, on the first process: refused in words, nobody added.
    const eve = await openJoin(link, a, 'en-GB', 'Eve');
    await eve.click('[data-testid="join-submit"]');
    await eve.locator('[data-testid="form-error"]').waitFor();
    expect(await eve.textContent('[data-testid="form-error"]')).toMatch(/invite/i);
    await screenshot(eve, 'join-used-en-light');
    expect(await memberNames()).toEqual(['Ana', 'Zoe']);
    await eve.context().close();
  }, 90_000);

  it('lets one of two browsers joining with one code at the same moment in, one on each process', async () => {
    const { code } = await op<{ code: string }>('create_invite');
    const link = `${a.url}/app/join?code=${code}`;
    const [left, right] = await Promise.all([
      openJoin(link, a, 'en-GB', 'Luis'),
      openJoin(link, b, 'en-GB', 'Mia'),
    ]);
    await Promise.all([
      left.click('[data-testid="join-submit"]'),
      right.click('[data-testid="join-submit"]'),
    ]);
    const outcome = (page: Page): Promise<'joined' | 'refused'> =>
      Promise.race([
        page.waitForSelector('[data-screen="overview"]').then(() => 'joined' as const),
        page.waitForSelector('[data-testid="form-error"]').then(() => 'refused' as const),
      ]);
    const results = await Promise.all([outcome(left), outcome(right)]);
    expect([...results].sort()).toEqual(['joined', 'refused']);
    const winner = results[0] === 'joined' ? 'Luis' : 'Mia';
    expect(await memberNames()).toEqual(['Ana', winner, 'Zoe'].sort());
    await left.context().close();
    await right.context().close();
  }, 90_000);
});
