import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import ICAL from 'ical.js';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runExhale, startExhaleProcess } from '../helpers/exhaleProcess.ts';
import {
  buildApp,
  type Household,
  launchBrowser,
  screenshot,
  settled,
  startHousehold,
} from '../helpers/miniapp.ts';

/**
 * The Mini App outside Telegram (a plain browser, no launch parameters): the sign-in screen when
 * there is no session, a sign-in link from the command line becoming a session cookie, the app's
 * own header and buttons, and the calendar feed it shows parsing as iCal.
 */
let hh: Household;
let browser: Browser;

beforeAll(async () => {
  await buildApp();
  hh = await startHousehold();
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await hh?.stop();
});

async function context(locale: string, scheme: 'light' | 'dark'): Promise<BrowserContext> {
  return browser.newContext({ viewport: { width: 390, height: 844 }, locale, colorScheme: scheme });
}

/** A sign-in link for Ana, as the command line gives one. */
async function signInLink(): Promise<string> {
  const made = await runExhale({ EXHALE_DATA_DIR: hh.dataDir }, [
    'op',
    'create_sign_in_link',
    '--as',
    'Ana',
  ]);
  expect(made.code, made.stderr).toBe(0);
  const { path } = JSON.parse(made.stdout) as { path: string };
  return `${hh.server.url}${path}`;
}

/** Ana's subscription of that name, read through the command line. */
async function subscriptionId(name: string): Promise<string> {
  const listed = await runExhale({ EXHALE_DATA_DIR: hh.dataDir }, [
    'op',
    'list_subscriptions',
    '--as',
    'Ana',
  ]);
  expect(listed.code, listed.stderr).toBe(0);
  const { items } = JSON.parse(listed.stdout) as { items: { id: string; name: string }[] };
  const found = items.find((s) => s.name === name);
  expect(found, name).toBeDefined();
  return found!.id;
}

describe('the Mini App in a plain browser', () => {
  for (const [locale, scheme, says] of [
    ['en-GB', 'light', 'not signed in'],
    ['es-ES', 'dark', 'No has iniciado sesión'],
  ] as const) {
    it(`without a session, says so and how to get a sign-in link (${locale}, ${scheme})`, async () => {
      const ctx = await context(locale, scheme);
      const page = await ctx.newPage();
      await page.goto(`${hh.server.url}/app/`);
      await page.waitForSelector('[data-testid="auth-problem"]');
      expect(await page.textContent('[data-testid="auth-problem"]')).toContain(says);
      expect(await page.textContent('main')).toContain('exhale web');
      expect(await page.textContent('main')).toContain('Telegram');
      await screenshot(page, `signin-${locale.slice(0, 2)}-${scheme}`);
      await ctx.close();
    });
  }

  it('on a server without a Telegram bot, tells only the ways that work there', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'exhale-nobot-'));
    expect((await runExhale({ EXHALE_DATA_DIR: dataDir }, ['demo'])).code).toBe(0);
    const server = await startExhaleProcess({ EXHALE_DATA_DIR: dataDir });
    try {
      const ctx = await context('en-GB', 'light');
      const page = await ctx.newPage();
      await page.goto(`${server.url}/app/`);
      await page.waitForSelector('[data-testid="auth-problem"]');
      const main = (await page.textContent('main')) ?? '';
      expect(main).not.toContain('Telegram');
      expect(main).not.toContain('the bot');
      expect(main).toContain('type /web');
      expect(main).toContain('exhale web');
      await screenshot(page, 'signin-en-light-no-bot');
      await ctx.close();
    } finally {
      server.kill('SIGTERM');
      await server.exited;
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('signs in with a link from the command line: an HttpOnly session cookie, then the overview', async () => {
    const ctx = await context('en-GB', 'light');
    const page = await ctx.newPage();
    await page.goto(await signInLink());
    await settled(page, 'overview');
    expect(await page.textContent('[data-testid="monthly"]')).toMatch(/€\d/);
    const cookie = (await ctx.cookies()).find((c) => c.name === 'exhale_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(new URL(page.url()).pathname).toBe('/app/');

    // Its own header and buttons: a Back arrow on a detail, the main action as a button.
    await page.click('[data-tab="subscriptions"]');
    await settled(page, 'subscriptions');
    await page.locator('[data-testid="sub-row"]').first().click();
    await settled(page, 'subscription');
    expect(await page.textContent('[data-testid="main-action"]')).toBe('Edit');
    await screenshot(page, 'detail-browser-en-light');
    await page.click('[data-testid="back"]');
    await settled(page, 'subscriptions');

    // A reload stays on its screen (the server answers index.html for client routes).
    await page.reload();
    await settled(page, 'subscriptions');
    await ctx.close();
  });

  it('refuses a sign-in link used twice, in the reader’s words, said once, with the command to type', async () => {
    const link = await signInLink();
    const first = await context('en-GB', 'light');
    const page = await first.newPage();
    await page.goto(link);
    await settled(page, 'overview');
    await first.close();
    const second = await context('en-GB', 'light');
    const again = await second.newPage();
    await again.goto(link);
    await again.waitForSelector('[role="alert"]');
    const main = (await again.textContent('main')) ?? '';
    expect(main).toContain('already used');
    // Said once (no heading, no second copy under the field), and never with raw backticks.
    expect(main.split('already used').length - 1).toBe(1);
    expect(main).not.toContain('`');
    // The command a person can type: `npx exhale web` (no bare `exhale` on PATH without npm link).
    const codes = await again.locator('main code').allTextContents();
    expect(codes).toContain('npx exhale web');
    expect(codes).not.toContain('exhale web');
    await screenshot(again, 'signin-used-en-light');
    await second.close();
  });

  it('shows the member’s calendar feed URL, and the feed it names parses as iCal with the charges', async () => {
    const ctx = await context('en-GB', 'light');
    const page = await ctx.newPage();
    await page.goto(await signInLink());
    await settled(page, 'overview');
    await page.click('[data-tab="calendar"]');
    await settled(page, 'calendar');
    await page.click('[data-testid="create-feed"]');
    const url =
      (await (await page.waitForSelector('[data-testid="feed-url"]')).textContent())?.trim() ?? '';
    expect(url).toMatch(/\/cal\/.+\.ics$/);
    await screenshot(page, 'calendar-feed-en-light');
    const feed = await fetch(url);
    expect(feed.headers.get('content-type')).toContain('text/calendar');
    const calendar = new ICAL.Component(ICAL.parse(await feed.text()));
    const events = calendar.getAllSubcomponents('vevent');
    expect(events.length).toBeGreaterThan(5);
    expect(events.map((e) => String(e.getFirstPropertyValue('summary'))).join('\n')).toContain(
      'Netflix',
    );
    await ctx.close();
  });
  describe('a deep link opened without a session lands on its screen once signed in', () => {
    it('a subscription link, then the sign-in link opened in another tab', async () => {
      const id = await subscriptionId('Netflix');
      const ctx = await context('en-GB', 'light');
      const asked = await ctx.newPage();
      await asked.goto(`${hh.server.url}/app/subscriptions/${id}`);
      await asked.waitForSelector('[data-testid="auth-problem"]');
      expect(await asked.textContent('[data-testid="signin-return"]')).toContain(
        'Exhale opens the screen your link asked for',
      );
      await screenshot(asked, 'signin-deeplink-en-light');
      // The link from /web opens in a new tab, which has no sessionStorage of the first.
      const signIn = await ctx.newPage();
      await signIn.goto(await signInLink());
      await settled(signIn, 'subscription');
      expect(new URL(signIn.url()).pathname).toBe(`/app/subscriptions/${id}`);
      expect(await signIn.textContent('header h1')).toBe('Netflix');
      // Taken once: the next sign-in opens the Overview.
      await signIn.goto(await signInLink());
      await settled(signIn, 'overview');
      await ctx.close();
    });

    it('a hash link (/app/#/subscriptions/<id>) with the code pasted on the sign-in screen (Spanish)', async () => {
      const id = await subscriptionId('Spotify Family');
      const ctx = await context('es-ES', 'dark');
      const page = await ctx.newPage();
      await page.goto(`${hh.server.url}/app/#/subscriptions/${id}`);
      await page.waitForSelector('[data-testid="auth-problem"]');
      expect(await page.textContent('[data-testid="signin-return"]')).toContain(
        'Exhale abrirá la pantalla',
      );
      expect(new URL(page.url()).pathname).toBe(`/app/subscriptions/${id}`);
      await page.fill('[data-testid="code"]', await signInLink());
      await page.click('[data-testid="signin"]');
      await settled(page, 'subscription');
      expect(await page.textContent('header h1')).toBe('Spotify Family');
      expect(new URL(page.url()).pathname).toBe(`/app/subscriptions/${id}`);
      await ctx.close();
    });

    it('a start parameter link (?startapp=) and a calendar day, through the sign-in link in the same tab', async () => {
      const id = await subscriptionId('Netflix');
      const ctx = await context('en-GB', 'light');
      const page = await ctx.newPage();
      await page.goto(`${hh.server.url}/app/?startapp=${id}`);
      await page.waitForSelector('[data-testid="auth-problem"]');
      await page.goto(await signInLink());
      await settled(page, 'subscription');
      expect(new URL(page.url()).pathname).toBe(`/app/subscriptions/${id}`);

      // Signed in, a calendar link with a day opens that month with the day chosen.
      await page.goto(`${hh.server.url}/app/calendar?day=2027-05-14`);
      await settled(page, 'calendar');
      expect(await page.textContent('[data-testid="month-title"]')).toBe('May 2027');
      expect(await page.getAttribute('[data-day="2027-05-14"]', 'class')).toContain('sel');
      await ctx.close();
    });

    it('never leaves the app: a stored target that is not an in-app route opens the Overview', async () => {
      const ctx = await context('en-GB', 'light');
      const page = await ctx.newPage();
      await page.goto(`${hh.server.url}/app/`);
      await page.waitForSelector('[data-testid="auth-problem"]');
      // The Overview is no deep link: nothing to promise.
      expect(await page.locator('[data-testid="signin-return"]').count()).toBe(0);
      for (const path of [
        'https://evil.example/app/',
        '//evil.example/app/',
        '/app//evil.example/',
        '/app/\\evil.example',
        '/elsewhere',
        '/app/signin?code=x',
      ]) {
        // What the app would have kept, written by hand (a string: the test's TypeScript has no DOM).
        await page.evaluate(
          `localStorage.setItem('exhale:after-sign-in', JSON.stringify({ path: ${JSON.stringify(path)}, at: Date.now() }))`,
        );
        await page.goto(await signInLink());
        await settled(page, 'overview');
        expect(page.url(), path).toBe(`${hh.server.url}/app/`);
        await ctx.clearCookies();
      }
      // The same hand-written entry with an in-app route is followed: the check above is the guard's.
      await page.goto(`${hh.server.url}/app/`);
      await page.waitForSelector('[data-testid="auth-problem"]');
      await page.evaluate(
        `localStorage.setItem('exhale:after-sign-in', JSON.stringify({ path: '/app/insights', at: Date.now() }))`,
      );
      await page.goto(await signInLink());
      await settled(page, 'insights');
      await ctx.close();
      // Seven sign-ins, each link made by an `exhale op` process: more than the default 30 s on a
      // busy machine.
    }, 90_000);
  });
});
