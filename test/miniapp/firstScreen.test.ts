import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';

import {
  ANA_TG,
  buildApp,
  launchBrowser,
  openInTelegram,
  signInitData,
  startHousehold,
  type Household,
} from '../helpers/miniapp.ts';

/**
 * The first screen's loading in a real Chromium against a real `exhale`: index.html's inline
 * bootstrap asks `/api/batch` once (allowed by its hash in the CSP), and the app takes that answer
 * instead of asking again; a start screen other than the overview asks only who is signed in.
 */
let hh: Household;
let browser: Browser;
let initData: string;

beforeAll(async () => {
  await buildApp();
  hh = await startHousehold();
  browser = await launchBrowser();
  initData = signInitData(hh.telegram.token, ANA_TG);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await hh?.stop();
});

/** Opens the app inside Telegram, recording every API request and any CSP violation. */
async function openRecording(path: string, ready: string) {
  const requests: string[] = [];
  const violations: string[] = [];
  const pending: Page = await openInTelegram(browser, hh.server.url, initData, 'light', path);
  // openInTelegram has navigated already: record from a reload, which starts afresh, once the
  // first load has shown its screen and sent everything (on a busy machine a late request of the
  // first load would otherwise be recorded as the reload's).
  await pending.waitForSelector(ready);
  await pending.waitForLoadState('networkidle');
  pending.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/') && url.pathname !== '/api/events')
      requests.push(`${r.method()} ${url.pathname}`);
  });
  pending.on('console', (m) => {
    if (m.text().includes('Content Security Policy')) violations.push(m.text());
  });
  await pending.reload();
  await pending.waitForSelector(ready);
  return { page: pending, requests, violations };
}

describe('the first screen with data', () => {
  it("is Vue's production build, though built under the tests' NODE_ENV=test", () => {
    expect(process.env.NODE_ENV).toBe('test');
    const assets = path.join(import.meta.dirname, '../../miniapp/dist/assets');
    const scripts = readdirSync(assets).filter((f) => f.endsWith('.js'));
    expect(scripts.length).toBeGreaterThan(3);
    for (const file of scripts)
      expect(readFileSync(path.join(assets, file), 'utf8'), file).not.toContain('[Vue warn]');
  });

  it('asks the API once for the overview, from the bootstrap, with nothing refused by the CSP', async () => {
    const { page, requests, violations } = await openRecording('/app/', '[data-testid="monthly"]');
    expect(requests).toEqual(['POST /api/batch']);
    expect(violations).toEqual([]);
    expect(await page.textContent('[data-testid="monthly"]')).toMatch(/\d/);
    await page.context().close();
  });

  it('on another start screen, the bootstrap asks only who is signed in and the screen loads its own data', async () => {
    const { page, requests, violations } = await openRecording(
      '/app/subscriptions',
      '[data-testid="sub-row"]',
    );
    expect(requests[0]).toBe('POST /api/batch');
    expect(requests.filter((r) => r === 'POST /api/batch')).toHaveLength(1);
    expect(requests).not.toContain('GET /api/me');
    expect(violations).toEqual([]);
    await page.context().close();
  });
});
