import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import {
  ANA_TG,
  api,
  BEN_TG,
  openInTelegram,
  screenshot,
  settled,
  signInitData,
  tgEmit,
  tgEvents,
  useMiniApp,
} from '../helpers/miniapp.ts';
import { runExhale } from '../helpers/exhaleProcess.ts';

/**
 * Adding a subscription in the app, in Chromium against a real `exhale` (the demo household):
 * "+ Add" on Subscriptions (Telegram's MainButton), the form over create_subscription with the
 * op's errors under the fields in the member's language and nothing written, the household's
 * currency by default, a subscription of the same name said before a second one is added, then
 * the new subscription's detail with an Undo toast that removes it.
 */
const app = useMiniApp();

async function mainButton(page: Page): Promise<string | undefined> {
  const events = await tgEvents(page);
  const last = events.filter((e) => e.name === 'web_app_setup_main_button').at(-1)?.params;
  return last?.is_visible === false || typeof last?.text !== 'string' ? undefined : last.text;
}

interface Sub {
  id: string;
  name: string;
  amount: string;
  currency: string;
  cycle: { unit: string; every: number };
  category: { name: string } | null;
}

const CASES = [
  {
    tg: ANA_TG,
    theme: 'light',
    lang: 'en',
    add: '+ Add',
    submit: 'Add',
    anyway: 'Add a second one',
    bad: 'Enter an amount like 12.99 or 12,99.',
    dup: 'You already have Netflix',
    name: 'Hulu',
    category: 'Streaming',
  },
  {
    tg: BEN_TG,
    theme: 'dark',
    lang: 'es',
    add: '+ Añadir',
    submit: 'Añadir',
    anyway: 'Añadir otra',
    bad: 'Escribe un importe como 12,99 o 12.99.',
    dup: 'Ya tienes Netflix',
    name: 'Filmin',
    category: 'Cine',
  },
] as const;

describe('adding a subscription in the app (Chromium)', () => {
  for (const c of CASES) {
    it(`adds through the op's form, with its errors, the duplicate warning and Undo (${c.lang}, ${c.theme})`, async () => {
      const initData = signInitData(app.hh.telegram.token, c.tg);
      const list = (): Promise<{ items: Sub[] }> =>
        api(app.hh.server.url, initData, 'list_subscriptions', { limit: 200 });
      const before = await list();
      const page = await openInTelegram(
        app.browser,
        app.hh.server.url,
        initData,
        c.theme,
        '/app/subscriptions',
      );
      await settled(page, 'subscriptions');
      await expect.poll(() => mainButton(page)).toBe(c.add);
      await tgEmit(page, 'main_button_pressed');
      await settled(page, 'add');
      await expect.poll(() => mainButton(page)).toBe(c.submit);
      // The household's currency by default.
      expect(await page.inputValue('input[name="currency"]')).toBe('EUR');
      await screenshot(page, `add-form-${c.lang}-${c.theme}`);

      // A price the app cannot read: the app's sentence under the field (naming 12.99 and 12,99, as
      // the Edit form says it), in the member's language; nothing written.
      await page.fill('input[name="name"]', c.name);
      await page.fill('input[name="amount"]', 'abc');
      await tgEmit(page, 'main_button_pressed');
      const error = page.locator('[data-testid="error-amount"]');
      await error.waitFor();
      expect((await error.textContent())?.trim()).toBe(c.bad);
      await screenshot(page, `add-form-error-${c.lang}-${c.theme}`);
      expect((await list()).items.length).toBe(before.items.length);

      // A name the household already has: said first, added only when asked again.
      await page.fill('input[name="name"]', 'netflix');
      await page.fill('input[name="amount"]', '7,99');
      await tgEmit(page, 'main_button_pressed');
      const dup = page.locator('[data-testid="duplicate"]');
      await dup.waitFor();
      expect(await dup.textContent()).toContain(c.dup);
      await expect.poll(() => mainButton(page)).toBe(c.anyway);
      expect(await error.count()).toBe(0);
      expect((await list()).items.length).toBe(before.items.length);
      await screenshot(page, `add-duplicate-${c.lang}-${c.theme}`);

      // A new name: added, its detail opens with Undo.
      await page.fill('input[name="name"]', c.name);
      await page.fill('input[name="category"]', c.category);
      await page.selectOption('select[name="unit"]', 'year');
      await expect.poll(() => mainButton(page)).toBe(c.submit);
      await tgEmit(page, 'main_button_pressed');
      await settled(page, 'subscription');
      const added = (await list()).items.find((s) => s.name === c.name);
      expect(added).toMatchObject({
        amount: '7.99',
        currency: 'EUR',
        cycle: { unit: 'year', every: 1 },
        category: { name: c.category },
      });
      expect(page.url()).toContain(`/app/subscriptions/${added?.id ?? ''}`);
      await page.locator('[data-testid="toast"]').waitFor();
      expect(await page.locator('[data-testid="toast"]').textContent()).toContain(c.name);
      await screenshot(page, `add-done-${c.lang}-${c.theme}`);
      await page.click('[data-testid="undo"]');
      await expect
        .poll(async () => (await list()).items.some((s) => s.name === c.name))
        .toBe(false);
      await page.context().close();
    }, 60_000);
  }

  it('offers "+ Add" in the header in a plain browser, and its own Add button', async () => {
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
      locale: 'en-GB',
    });
    const page = await ctx.newPage();
    await page.goto(`${app.hh.server.url}${path}`);
    await settled(page, 'overview');
    await page.goto(`${app.hh.server.url}/app/subscriptions`);
    await settled(page, 'subscriptions');
    await page.click('[data-testid="add-subscription"]');
    await settled(page, 'add');
    expect(await page.textContent('[data-testid="main-action"]')).toContain('Add');
    await page.fill('input[name="name"]', '');
    await page.click('[data-testid="main-action"]');
    await page.locator('[data-testid="error-name"]').waitFor();
    await screenshot(page, 'add-form-browser-en-light');
    await ctx.close();
  }, 60_000);
});
