import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import { runExhale } from '../helpers/exhaleProcess.ts';
import {
  ANA_TG,
  api,
  BEN_TG,
  openInTelegram,
  screenshot,
  settled,
  signInitData,
  tgEmit,
  useMiniApp,
} from '../helpers/miniapp.ts';

/**
 * The screens under More and Insights, in Chromium against a real `exhale` (the demo household):
 * signed-in browsers named as people name them, signed out without an Undo that cannot work; a
 * token's revoke card with its time written out; rates of other years dated with their year and
 * the euro never listed against itself; reminder days said as a range; Connect with one Create
 * button, a name field that stops at the op's length and a Copy that says when it failed;
 * Activity's agents filter when no agent did anything; Insights' ways to save in the reader's
 * money; the Import screen's one heading.
 */
const app = useMiniApp();

/** A plain browser (no Telegram) signed in as Ana through a sign-in link. */
async function signedInBrowser(): Promise<Page> {
  const made = await runExhale({ EXHALE_DATA_DIR: app.hh.dataDir }, [
    'op',
    'create_sign_in_link',
    '--as',
    'Ana',
  ]);
  expect(made.code, made.stderr).toBe(0);
  const { path } = JSON.parse(made.stdout) as { path: string };
  const ctx = await app.browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1,
    locale: 'en-GB',
  });
  const page = await ctx.newPage();
  await page.goto(`${app.hh.server.url}${path}`);
  await settled(page, 'overview');
  return page;
}

describe('the screens under More (Chromium)', () => {
  it('names signed-in browsers, and signs one out with a card naming it and no Undo', async () => {
    const other = await signedInBrowser();
    const page = await signedInBrowser();
    await page.goto(`${app.hh.server.url}/app/settings`);
    await settled(page, 'settings');
    const rows = page.locator('[data-testid="session-row"]');
    expect(await rows.count()).toBeGreaterThanOrEqual(2);
    for (const name of await page.locator('[data-testid="session-name"]').allTextContents())
      expect(name).toMatch(/^\s*Chrome on Linux/);
    // This browser is marked; the other one is signed out from here.
    const target = rows.filter({ hasNot: page.locator('.badge') }).last();
    await target.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-sessions-en-light');
    await target.locator('[data-testid="end-session"]').click();
    const sheet = page.locator('[data-testid="sheet"]');
    await sheet.waitFor();
    expect(await sheet.locator('h2').textContent()).toBe('Chrome on Linux: sign out?');
    await screenshot(page, 'settings-sign-out-sheet-en-light');
    await page.click('[data-testid="confirm"]');
    const toast = page.locator('[data-testid="toast"]');
    await toast.filter({ hasText: 'Browser signed out.' }).waitFor();
    // A sign-out cannot be undone: no button that would only be refused.
    expect(await toast.locator('button').count()).toBe(0);
    await screenshot(page, 'settings-signed-out-en-light');
    // The other browser is signed out indeed.
    await other.reload();
    await other.locator('[data-screen="signin"]').waitFor();
    await other.context().close();
    await page.context().close();
  }, 90_000);

  it('writes the time in a revoke card, dates other years’ rates with their year, never lists the euro against itself, and says reminder days as a range', async () => {
    const initData = signInitData(app.hh.telegram.token, ANA_TG);
    await api(app.hh.server.url, initData, 'create_token', { name: 'Laptop', scope: 'read' });
    await api(app.hh.server.url, initData, 'set_exchange_rate', {
      currency: 'GBP',
      rate: '0.8400',
      date: '2025-06-02',
    });
    const page = await openInTelegram(
      app.browser,
      app.hh.server.url,
      initData,
      'light',
      '/app/settings',
    );
    await settled(page, 'settings');

    const rates = page.locator('[data-testid="rate-row"]');
    const currencies = (await rates.allTextContents()).map((r) => r.trim().slice(0, 3));
    expect(currencies).not.toContain('EUR');
    expect(await rates.filter({ hasText: 'GBP' }).textContent()).toContain(
      'set by hand, Jun 2, 2025',
    );
    await rates.first().scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-rates-en-light');

    await page
      .locator('[data-testid="token-row"]', { hasText: 'Laptop' })
      .locator('[data-testid="revoke-token"]')
      .click();
    const sheet = page.locator('[data-testid="sheet"]');
    await sheet.waitFor();
    const lines = (await sheet.locator('[data-testid="sheet-line"]').allTextContents()).join('\n');
    expect(lines).toContain('revoked');
    expect(lines).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    await screenshot(page, 'settings-revoke-sheet-en-light');
    await page.click('[data-testid="discard"]');

    await page.fill('input[inputmode="numeric"]', '3, -1');
    await tgEmit(page, 'main_button_pressed');
    await page.locator('[data-testid="error-reminders"]').waitFor();
    expect(await page.textContent('[data-testid="error-reminders"]')).toBe('Must be at least 0.');
    await page.context().close();
  }, 60_000);

  it('has one Create button on Connect, a name that stops at 80 characters, and a Copy that says when it failed', async () => {
    const page = await signedInBrowser();
    // A browser that refuses the clipboard (as one without permission, or out of focus, does).
    await page.addInitScript({
      content:
        "Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } });",
    });
    await page.goto(`${app.hh.server.url}/app/connect`);
    await settled(page, 'connect');
    expect(await page.getByRole('button', { name: 'Create a token' }).count()).toBe(1);
    const name = page.locator('input[name="token_name"]');
    await name.fill('x'.repeat(100));
    expect((await name.inputValue()).length).toBe(80);
    await page.click('.section .btn-row button:has-text("Copy")');
    const toast = page.locator('[data-testid="toast"]');
    await toast.waitFor();
    expect(await toast.textContent()).toContain("Couldn't copy");
    expect(await toast.textContent()).not.toContain('Copied.');
    await screenshot(page, 'connect-copy-failed-en-light');
    await page.context().close();
  }, 60_000);

  it('says no agent changed anything under “Agents only”, and Insights’ ways to save speak the reader’s money', async () => {
    const initData = signInitData(app.hh.telegram.token, BEN_TG);
    const page = await openInTelegram(
      app.browser,
      app.hh.server.url,
      initData,
      'dark',
      '/app/activity',
    );
    await settled(page, 'activity');
    await page.click('[data-testid="agents-only"]');
    await page.locator('[data-testid="empty"]').waitFor();
    expect(await page.textContent('[data-testid="empty"] h3')).toBe(
      'Ningún agente ha cambiado nada',
    );
    await screenshot(page, 'activity-agents-empty-es-dark');

    await page.goto(page.url().replace('/app/activity', '/app/insights'));
    await settled(page, 'insights');
    const savings = await page.locator('[data-testid="saving-text"]').allTextContents();
    expect(savings.length).toBeGreaterThan(0);
    for (const text of savings) {
      expect(text).not.toMatch(/\d EUR\b/);
      expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    }
    expect(savings.join(' ')).toMatch(/\d,\d{2}\s€/);
    await page.locator('[data-testid="savings"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'insights-savings-es-dark');

    // The Import screen says its title once.
    await page.goto(page.url().replace('/app/insights', '/app/import'));
    await page.locator('[data-screen="import-upload"]').waitFor();
    const title = (await page.locator('.topbar h1').textContent())?.trim();
    const heading = (await page.locator('[data-testid="empty"] h3').textContent())?.trim();
    expect(heading).not.toBe(title);
    await screenshot(page, 'import-upload-es-dark');
    await page.context().close();
  }, 60_000);
});
