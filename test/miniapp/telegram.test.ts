import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';

import {
  ANA_TG,
  api,
  BEN_TG,
  buildApp,
  type Household,
  launchBrowser,
  openInTelegram,
  screenshot,
  settled,
  signInitData,
  startHousehold,
  tgEmit,
  type TgEvent,
  tgEvents,
  type Theme,
  THEMES,
} from '../helpers/miniapp.ts';

/**
 * The Mini App inside Telegram, against a real `exhale` on a fresh demo household: init data
 * signed with the process's bot token, Telegram's side played by the page (launch parameters,
 * postEvent recorded), at phone size in light and dark, in English (Ana) and Spanish (Ben).
 */
let hh: Household;
let browser: Browser;
let anaData: string;
let benData: string;

beforeAll(async () => {
  await buildApp();
  hh = await startHousehold();
  browser = await launchBrowser();
  anaData = signInitData(hh.telegram.token, ANA_TG);
  benData = signInitData(hh.telegram.token, BEN_TG);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await hh?.stop();
});

interface Sub {
  id: string;
  name: string;
  amount: string;
  status: string;
}

async function open(initData: string, theme: Theme, path = '/app/'): Promise<Page> {
  const page = await openInTelegram(browser, hh.server.url, initData, theme, path);
  await page.waitForSelector('[data-screen]');
  return page;
}

/** Waits until the open screen has its data (no skeleton left). */
async function subByName(initData: string, name: string): Promise<Sub> {
  const list = await api<{ items: Sub[] }>(hh.server.url, initData, 'list_subscriptions', {
    text: name,
  });
  const sub = list.items.find((s) => s.name === name);
  if (!sub) throw new Error(`no ${name}`);
  return sub;
}

/** Waits until the app's last call of a Mini App method set `key` to `value`. */
async function untilEvent(page: Page, name: string, key: string, value: unknown): Promise<void> {
  await page.waitForFunction(
    (want) => {
      const events = (globalThis as unknown as { __tgEvents: TgEvent[] }).__tgEvents;
      return events.filter((e) => e.name === want.name).at(-1)?.params?.[want.key] === want.value;
    },
    { name, key, value },
  );
}

/** A calendar date as stored ("2026-12-06") or an amount as an op writes it ("119.88 EUR"). */
const RAW_DATE = /\b\d{4}-\d{2}-\d{2}\b/;
const RAW_AMOUNT = /\b\d+\.\d{2} [A-Z]{3}\b/;

/**
 * The open screen's text shows dates and amounts in the reader's format only: no ISO date in any
 * language, and no "119.88 EUR" for a Spanish reader (whose decimal mark is a comma).
 */
async function expectReaderFormat(page: Page, locale: 'en' | 'es', screen: string): Promise<void> {
  const text = await page.locator('main').innerText();
  expect(text, `${screen} in ${locale}`).not.toMatch(RAW_DATE);
  if (locale === 'es') expect(text, `${screen} in ${locale}`).not.toMatch(RAW_AMOUNT);
}

function mainButton(
  events: { name: string; params?: Record<string, unknown> }[],
): Record<string, unknown> | undefined {
  return events.filter((e) => e.name === 'web_app_setup_main_button').at(-1)?.params;
}

describe('the Mini App in Telegram', () => {
  const runs = [
    { who: 'en', initData: () => anaData, locale: 'en', theme: 'light' },
    { who: 'en', initData: () => anaData, locale: 'en', theme: 'dark' },
    { who: 'es', initData: () => benData, locale: 'es', theme: 'light' },
    { who: 'es', initData: () => benData, locale: 'es', theme: 'dark' },
  ] as const;

  for (const run of runs) {
    it(`shows every screen with its data in ${run.locale}, ${run.theme} theme (screenshots in test-output/miniapp)`, async () => {
      const totals = await api<{ totals: { monthly: string; yearly: string } }>(
        hh.server.url,
        run.initData(),
        'get_totals',
        {},
      );
      const page = await open(run.initData(), run.theme);
      await settled(page, 'overview');
      const euro = (v: string): string =>
        new Intl.NumberFormat(run.locale, { style: 'currency', currency: 'EUR' }).format(Number(v));
      expect(await page.textContent('[data-testid="monthly"]')).toBe(euro(totals.totals.monthly));
      expect(await page.textContent('[data-testid="yearly"]')).toBe(euro(totals.totals.yearly));
      // Telegram's theme is the app's: the page background is the theme's secondary background.
      const bg = await page.evaluate('getComputedStyle(document.body).backgroundColor');
      const hex = THEMES[run.theme].secondary_bg_color ?? '';
      const rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ');
      expect(bg).toBe(`rgb(${rgb})`);
      expect(await page.getAttribute('html', 'lang')).toBe(run.locale);
      const tag = `${run.locale}-${run.theme}`;
      await screenshot(page, `overview-${tag}`);
      // The demo's trial ending and price rise need attention, written the reader's way.
      const attention = await page.locator('[data-testid="attention"]').innerText();
      expect(attention).toContain(run.locale === 'es' ? 'La prueba de' : 'trial ends');
      // Its amounts in the app's money format, as every other amount of the app ("€119.88",
      // "119,88 €"), not the op's "119,88 EUR".
      expect(attention).not.toMatch(/\d EUR\b/);
      const context = await api<{
        attention: {
          items: Array<{ kind: string; facts: { yearly: string | null; currency: string | null } }>;
        };
      }>(hh.server.url, run.initData(), 'get_context', {});
      const shown = context.attention.items.filter((i) =>
        ['trial_converting', 'price_increase'].includes(i.kind),
      );
      expect(shown.length).toBeGreaterThan(0);
      for (const item of shown)
        if (item.facts.yearly !== null && item.facts.currency === 'EUR')
          expect(attention).toContain(euro(item.facts.yearly));
      await expectReaderFormat(page, run.locale, 'overview');

      await page.click('[data-tab="subscriptions"]');
      await settled(page, 'subscriptions');
      const list = await api<{ total: number }>(
        hh.server.url,
        run.initData(),
        'list_subscriptions',
        {},
      );
      expect(await page.locator('[data-testid="sub-row"]').count()).toBe(list.total);
      await screenshot(page, `subscriptions-${tag}`);
      await expectReaderFormat(page, run.locale, 'subscriptions');
      // Search is the op's: accent- and case-insensitive.
      await page.fill('[data-testid="search"]', 'NETFLÍX');
      // One row left (the page's CSP allows no string evaluation: locators only).
      await page.locator('[data-testid="sub-row"]').nth(1).waitFor({ state: 'detached' });
      await page.click('[data-testid="sub-row"]');
      await settled(page, 'subscription');
      await page.waitForSelector('[data-testid="price-chart"]');
      expect(await page.locator('[data-testid="charges"] .row').count()).toBeGreaterThan(3);
      // A charge whose day has passed unrecorded is "not marked paid", never "expected".
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid' }).format(
        new Date(),
      );
      const badges: Array<[string, string]> = [];
      for (const row of await page.locator('[data-testid="charge-row"]').all())
        badges.push([
          (await row.getAttribute('data-due')) ?? '',
          (await row.locator('.badge').innerText()).trim(),
        ]);
      const past = badges.filter(([due]) => due < today).map(([, label]) => label);
      const ahead = badges.filter(([due]) => due >= today).map(([, label]) => label);
      expect(past.length).toBeGreaterThan(0);
      expect(past).not.toContain(run.locale === 'en' ? 'Expected' : 'Previsto');
      expect(past).toContain(run.locale === 'en' ? 'Not marked paid' : 'Sin marcar como pagado');
      for (const label of ahead)
        expect(['Expected', 'Previsto', 'Paid', 'Pagado', 'Skipped', 'Omitido']).toContain(label);
      await screenshot(page, `detail-${tag}`);
      await expectReaderFormat(page, run.locale, 'detail');

      for (const tab of ['calendar', 'insights', 'more'] as const) {
        await page.click(`[data-tab="${tab}"]`);
        await settled(page, tab);
        await screenshot(page, `${tab}-${tag}`);
        await expectReaderFormat(page, run.locale, tab);
      }
      for (const screen of ['activity', 'settings', 'connect'] as const) {
        await page.click('[data-tab="more"]');
        await settled(page, 'more');
        await page.click(`[data-testid="more-${screen}"]`);
        await settled(page, screen);
        await screenshot(page, `${screen}-${tag}`);
        await expectReaderFormat(page, run.locale, screen);
      }
      await page.close();
    });
  }

  it('drives Telegram’s MainButton and BackButton, asks before closing an unsaved form, and buzzes on success', async () => {
    const netflix = await subByName(anaData, 'Netflix');
    const page = await open(anaData, 'light', '/app/subscriptions');
    await settled(page, 'subscriptions');
    expect((await tgEvents(page)).some((e) => e.name === 'web_app_ready')).toBe(true);
    await page.click(`[data-id="${netflix.id}"]`);
    await settled(page, 'subscription');
    let events = await tgEvents(page);
    expect(events.filter((e) => e.name === 'web_app_setup_back_button').at(-1)?.params).toEqual({
      is_visible: true,
    });
    expect(mainButton(events)).toMatchObject({ text: 'Edit', is_visible: true, is_active: true });

    await tgEmit(page, 'main_button_pressed');
    await page.waitForSelector('[data-testid="edit-form"]');
    await untilEvent(page, 'web_app_setup_main_button', 'text', 'Save');
    await page.fill('[name="notes"]', 'Shared with the family');
    await untilEvent(page, 'web_app_setup_closing_behavior', 'need_confirmation', true);
    await tgEmit(page, 'main_button_pressed');
    await page.waitForSelector('[data-testid="toast"]');
    events = await tgEvents(page);
    expect(
      events.filter((e) => e.name === 'web_app_setup_closing_behavior').at(-1)?.params,
    ).toEqual({ need_confirmation: false });
    expect(
      events.some(
        (e) =>
          e.name === 'web_app_trigger_haptic_feedback' && e.params?.notification_type === 'success',
      ),
    ).toBe(true);
    expect(
      (await api<{ notes: string }>(hh.server.url, anaData, 'get_subscription', { id: netflix.id }))
        .notes,
    ).toBe('Shared with the family');

    await tgEmit(page, 'back_button_pressed');
    await settled(page, 'subscriptions');
    events = await tgEvents(page);
    expect(events.filter((e) => e.name === 'web_app_setup_back_button').at(-1)?.params).toEqual({
      is_visible: false,
    });
    await page.close();
  });

  it('shows the app’s sentence for a price it cannot read, the op’s own for one the op refuses, under the field, and saves nothing', async () => {
    const spotify = await subByName(anaData, 'Spotify Family');
    const page = await open(anaData, 'light', `/app/subscriptions/${spotify.id}`);
    await settled(page, 'subscription');
    await tgEmit(page, 'main_button_pressed');
    await page.waitForSelector('[data-testid="edit-form"]');
    await page.fill('input[name="amount"]', 'twelve');
    await tgEmit(page, 'main_button_pressed');
    const error = page.locator('[data-testid="error-amount"]');
    await error.waitFor();
    expect((await error.textContent())?.trim()).toBe('Enter an amount like 12.99 or 12,99.');
    await screenshot(page, 'edit-error-en-light');
    // Read by the app (a decimal comma), refused by update_subscription: its sentence.
    await page.fill('input[name="amount"]', '12,999');
    await tgEmit(page, 'main_button_pressed');
    await expect
      .poll(async () => (await error.textContent())?.trim())
      .toBe('EUR amounts have at most 2 decimals.');
    expect(
      (await api<Sub>(hh.server.url, anaData, 'get_subscription', { id: spotify.id })).amount,
    ).toBe(spotify.amount);
    await page.close();
  });

  it('pauses through the confirm sheet with Exhale’s card, and Undo in the toast restores it', async () => {
    const disney = await subByName(anaData, 'Disney+');
    expect(disney.status).toBe('active');
    const page = await open(anaData, 'dark', `/app/subscriptions/${disney.id}`);
    await settled(page, 'subscription');
    await page.click('[data-testid="pause"]');
    const sheet = await page.waitForSelector('[data-testid="sheet"]');
    expect(await sheet.textContent()).toContain('Disney+');
    await screenshot(page, 'confirm-sheet-en-dark');
    expect(
      (await api<Sub>(hh.server.url, anaData, 'get_subscription', { id: disney.id })).status,
    ).toBe('active');
    await page.click('[data-testid="confirm"]');
    await page.waitForSelector('[data-testid="undo"]');
    await page.locator('[data-testid="detail-status"]', { hasText: /^\s*Paused\s*$/ }).waitFor();
    expect(
      (await api<Sub>(hh.server.url, anaData, 'get_subscription', { id: disney.id })).status,
    ).toBe('paused');
    await screenshot(page, 'undo-toast-en-dark');

    await page.click('[data-testid="undo"]');
    await page.locator('[data-testid="detail-status"]', { hasText: /^\s*Active\s*$/ }).waitFor();
    expect(
      (await api<Sub>(hh.server.url, anaData, 'get_subscription', { id: disney.id })).status,
    ).toBe('active');
    const events = await tgEvents(page);
    expect(
      events.some(
        (e) => e.name === 'web_app_trigger_haptic_feedback' && e.params?.type === 'impact',
      ),
    ).toBe(true);
    await page.close();
  });

  it('undoes and redoes an entry from Activity, each button and toast saying what it does', async () => {
    const google = await subByName(anaData, 'Google One');
    await api(hh.server.url, anaData, 'update_subscription', {
      id: google.id,
      name: 'Google One 2 TB',
    });
    const page = await open(anaData, 'light', '/app/activity');
    await settled(page, 'activity');
    const first = page.locator('[data-testid="activity-row"]').first();
    expect(await first.textContent()).toContain('Google One 2 TB');
    // Ana's own change says it came through the app; what `exhale demo` seeded says it was the demo.
    expect(await first.textContent()).not.toContain('Exhale demo');
    // Earlier tests of this file add entries of their own: the demo's is found by what it did.
    const seeded = page
      .locator('[data-testid="activity-row"]')
      .filter({ hasText: 'Marked Mobile plan paid' })
      .first();
    await seeded.waitFor();
    expect(await seeded.textContent()).toContain('Exhale demo');
    expect(await seeded.textContent()).not.toContain('command line');
    await screenshot(page, 'activity-demo-en-light');
    await first.locator('[data-testid="undo-entry"]').click();
    await page
      .locator('[data-testid="activity-row"]')
      .first()
      .and(page.locator('[data-op="undo"]'))
      .waitFor();
    expect(
      (await api<Sub>(hh.server.url, anaData, 'get_subscription', { id: google.id })).name,
    ).toBe('Google One');
    // The toast says it was undone; its button brings the change back, so it says Redo.
    const toast = page.locator('[data-testid="toast"]');
    expect(await toast.locator('span').textContent()).toBe('Undone.');
    expect((await toast.locator('button').textContent())?.trim()).toBe('Redo');
    // Earlier tests of this file undo too: the redo is there once one more undo entry is.
    const undoRows = page.locator('[data-testid="activity-row"][data-op="undo"]');
    const undosBefore = await undoRows.count();
    const undone = page.locator('[data-testid="activity-row"]').first();
    expect(await undone.textContent()).toContain('Undone:');
    expect((await undone.locator('button').textContent())?.trim()).toBe('Redo');
    await undone.locator('[data-testid="redo"]').click();
    await undoRows.nth(undosBefore).waitFor();
    expect(
      (await api<Sub>(hh.server.url, anaData, 'get_subscription', { id: google.id })).name,
    ).toBe('Google One 2 TB');
    // Done again: the toast's button would take it back, so it says Undo.
    await toast.filter({ hasText: 'Done again.' }).waitFor();
    expect((await toast.locator('button').textContent())?.trim()).toBe('Undo');
    // The "Redone:" entry's own button takes the change back again: Undo, not Redo.
    const redone = page.locator('[data-testid="activity-row"]').first();
    expect(await redone.textContent()).toContain('Redone:');
    expect(await redone.locator('[data-testid="redo"]').count()).toBe(0);
    expect((await redone.locator('[data-testid="undo-entry"]').textContent())?.trim()).toBe('Undo');
    await screenshot(page, 'activity-redone-en-light');
    await redone.locator('[data-testid="undo-entry"]').click();
    await toast.filter({ hasText: 'Undone.' }).waitFor();
    expect(
      (await api<Sub>(hh.server.url, anaData, 'get_subscription', { id: google.id })).name,
    ).toBe('Google One');
    await page.close();
  });

  it('shows a change an agent made over MCP on the open screen, without a reload', async () => {
    const page = await open(anaData, 'light', '/app/subscriptions');
    await settled(page, 'subscriptions');
    const token = (
      await api<{ token: string }>(hh.server.url, anaData, 'create_token', {
        name: 'Test agent',
        scope: 'trusted',
      })
    ).token;
    const response = await fetch(`${hh.server.url}/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
        'MCP-Protocol-Version': '2025-11-25',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'create_subscription', arguments: { name: 'Hulu', amount: '7.99' } },
      }),
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Hulu');
    await page.locator('[data-testid="sub-row"] .title', { hasText: 'Hulu' }).waitFor();
    await page.close();
  });

  it('connects an agent: a token made on the spot with its QR code, and Test makes a real MCP call with it', async () => {
    const page = await open(anaData, 'light', '/app/connect');
    await settled(page, 'connect');
    await page.click('[data-client="cursor"]');
    expect(mainButton(await tgEvents(page))).toMatchObject({
      text: 'Create a token',
      is_visible: true,
    });
    await tgEmit(page, 'main_button_pressed');
    const token =
      (await (await page.waitForSelector('[data-testid="token"]')).textContent())?.trim() ?? '';
    expect(token).toMatch(/^exh_/);
    await page.waitForSelector('[data-testid="token-qr"]');
    expect(await page.textContent('[data-testid="config"]')).toContain(`Bearer ${token}`);
    await page.click('[data-testid="test"]');
    const result = await page.waitForSelector('[data-testid="test-result"]');
    expect(await result.textContent()).toMatch(/Connected to .+ tools offered/);
    await screenshot(page, 'connect-tested-en-light');
    const tokens = await api<{ items: { name: string }[] }>(
      hh.server.url,
      anaData,
      'list_tokens',
      {},
    );
    expect(tokens.items.map((x) => x.name)).toContain('Cursor');
    await page.close();
  });

  it('asks the chat engine from the Ask screen and shows its answer as a message', async () => {
    const page = await open(anaData, 'light', '/app/ask');
    await page.waitForSelector('[data-screen="ask"]');
    await page.fill('[data-testid="ask-input"]', '/help');
    await page.click('[data-testid="ask-send"]');
    await page.locator('.bubble.bot[data-testid="bubble"]').first().waitFor();
    expect((await page.locator('.bubble.bot').first().textContent())?.length).toBeGreaterThan(20);
    await screenshot(page, 'ask-en-light');
    await page.close();
  });

  it('says so when the init data was tampered with or is too old', async () => {
    const tampered = anaData.replace(encodeURIComponent('"Ana"'), encodeURIComponent('"Eve"'));
    expect(tampered).not.toBe(anaData);
    let page = await open(tampered, 'light');
    await page.waitForSelector('[data-testid="auth-problem"]');
    expect(await page.textContent('[data-testid="auth-problem"]')).toContain('not valid');
    await screenshot(page, 'signin-invalid-en-light');
    await page.close();

    const old = signInitData(hh.telegram.token, BEN_TG, new Date(Date.now() - 2 * 86_400_000));
    page = await open(old, 'dark');
    await page.waitForSelector('[data-testid="auth-problem"]');
    expect(await page.textContent('[data-testid="auth-problem"]')).toContain('caducado');
    await screenshot(page, 'signin-expired-es-dark');
    await page.close();
  });

  it('opens the screen a start parameter names (a deep link to a subscription)', async () => {
    const netflix = await subByName(anaData, 'Netflix');
    const page = await openInTelegram(
      browser,
      hh.server.url,
      anaData,
      'light',
      '/app/',
      `sub_${netflix.id.slice(4)}`,
    );
    await settled(page, 'subscription');
    expect(await page.textContent('header h1')).toBe('Netflix');
    await page.close();
  });
});
