import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { TgMessage } from '../fakes/telegramBotApi.ts';
import {
  ANA_TG,
  BEN_TG,
  api,
  buildApp,
  launchBrowser,
  openInTelegram,
  screenshot,
  signInitData,
  startHousehold,
  tgEmit,
  tgEvents,
  type Household,
  type Theme,
} from '../helpers/miniapp.ts';

/**
 * The Mini App's import review, deep links from chat and what /api/me says about the bot, in
 * Chromium against a real `exhale` (the demo household, its members on the fake Telegram), in
 * English (Ana, light) and Spanish (Ben, dark). The bot serves its Mini App at an https address
 * (EXHALE_MINIAPP_URL), so its cards carry web_app buttons; the test opens their URLs' paths on
 * the process itself, as Telegram would open them on the public address.
 */
const MINIAPP_URL = 'https://exhale.example/app/';
let hh: Household;
let browser: Browser;
let anaData: string;
let benData: string;

beforeAll(async () => {
  await buildApp();
  hh = await startHousehold({ EXHALE_MINIAPP_URL: MINIAPP_URL });
  browser = await launchBrowser();
  anaData = signInitData(hh.telegram.token, ANA_TG);
  benData = signInitData(hh.telegram.token, BEN_TG);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await hh?.stop();
});

async function settled(page: Page, screen: string): Promise<void> {
  await page.waitForSelector(`[data-screen="${screen}"]`);
  await page.locator('[data-testid="skeleton"]').waitFor({ state: 'detached' });
}

async function mainButton(page: Page): Promise<string | undefined> {
  const events = await tgEvents(page);
  const last = events.filter((e) => e.name === 'web_app_setup_main_button').at(-1)?.params;
  return typeof last?.text === 'string' ? last.text : undefined;
}

/** Four months of a card statement ending this month: three subscriptions among one-off buys. */
function statementCsv(): string {
  const now = new Date();
  const day = (monthsAgo: number, d: number): string =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, d))
      .toISOString()
      .slice(0, 10);
  const rows: string[] = ['Date,Description,Amount'];
  for (let m = 4; m >= 1; m--) {
    rows.push(`${day(m, 2)},"PAYPAL *DUOLINGO 3531436${m}",-6.99`);
    rows.push(`${day(m, 9)},"SQ *IRON GYM 440${m} London",-30.00`);
    rows.push(`${day(m, 14)},"AUDIBLE UK ADBL*${m}",-9.99`);
    rows.push(`${day(m, 20)},"LIDL DANKT 03${m}",-${20 + m}.50`);
  }
  return rows.join('\n');
}

interface Sub {
  id: string;
  name: string;
}
const names = async (initData: string): Promise<string[]> =>
  (await api<{ items: Sub[] }>(hh.server.url, initData, 'list_subscriptions', {})).items.map(
    (s) => s.name,
  );

async function openMore(initData: string, theme: Theme): Promise<Page> {
  const page = await openInTelegram(browser, hh.server.url, initData, theme, '/app/more');
  await settled(page, 'more');
  return page;
}

describe('the import review in Chromium', () => {
  for (const [who, theme, lang] of [
    ['ana', 'light', 'en'],
    ['ben', 'dark', 'es'],
  ] as const) {
    it(`uploads a statement, shows its candidates with toggles, imports the chosen ones and undoes them (${lang}, ${theme})`, async () => {
      const initData = who === 'ana' ? anaData : benData;
      const before = await names(initData);
      const page = await openMore(initData, theme);
      await page.setInputFiles('[data-testid="statement-file"]', {
        name: `card-${lang}.csv`,
        mimeType: 'text/csv',
        buffer: Buffer.from(statementCsv()),
      });
      await settled(page, 'import');
      const rows = page.locator('[data-testid="candidate"]');
      await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);
      const all = await rows.count();
      const label = lang === 'en' ? 'Import' : 'Importar';
      await expect.poll(() => mainButton(page)).toBe(`${label} ${all}`);
      await screenshot(page, `import-review-${lang}-${theme}`);

      // One toggled off: the main button counts what will be imported.
      await rows.first().locator('input.toggle').click();
      await expect.poll(() => mainButton(page)).toBe(`${label} ${all - 1}`);
      await tgEmit(page, 'main_button_pressed');
      await settled(page, 'subscriptions');
      const toast = page.locator('[data-testid="toast"]');
      await toast.waitFor();
      expect(await toast.textContent()).toContain(String(all - 1));
      await screenshot(page, `import-done-${lang}-${theme}`);
      await expect.poll(async () => (await names(initData)).length).toBe(before.length + all - 1);

      await page.click('[data-testid="undo"]');
      await expect.poll(async () => (await names(initData)).sort()).toEqual([...before].sort());
      await page.context().close();
    });
  }

  it('says which formats work when the file is not a statement (en and es)', async () => {
    for (const [initData, theme, says] of [
      [anaData, 'light', 'CSV'],
      [benData, 'dark', 'CSV'],
    ] as const) {
      const page = await openMore(initData, theme);
      await page.setInputFiles('[data-testid="statement-file"]', {
        name: 'letter.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('Dear Ana,\nsee you on Friday.\n'),
      });
      const toast = page.locator('[data-testid="toast"]');
      await toast.waitFor();
      const text = (await toast.textContent()) ?? '';
      expect(text).toContain(says);
      expect(text).toMatch(initData === anaData ? /transactions/ : /transacciones|movimientos/);
      await screenshot(page, `import-not-statement-${theme === 'light' ? 'en' : 'es'}-${theme}`);
      await page.context().close();
    }
  });
});

function webAppButtons(message: TgMessage): Array<{ text: string; url: string }> {
  const rows = message.reply_markup?.inline_keyboard ?? [];
  return rows.flat().flatMap((b) => (b.web_app ? [{ text: b.text, url: b.web_app.url }] : []));
}

/** The path (and query) of a button's URL on this process, as Telegram opens it on the public one. */
function onServer(url: string): string {
  const u = new URL(url);
  expect(u.origin).toBe(new URL(MINIAPP_URL).origin);
  return u.pathname + u.search;
}

describe('deep links from chat', () => {
  it('the subscription card’s “Open in app” opens that subscription', async () => {
    const ana = hh.telegram.user(ANA_TG.id, 'Ana', 'en');
    const upcoming = await hh.telegram.ask(ana, '/upcoming');
    // The upcoming list opens the app's calendar.
    const calendar = webAppButtons(upcoming).find((b) => b.text.includes('Open in app'));
    expect(calendar && onServer(calendar.url)).toBe('/app/calendar');

    const first = (upcoming.reply_markup?.inline_keyboard ?? [])
      .flat()
      .find((b) => b.text.startsWith('📄'));
    expect(first).toBeDefined();
    const name = (first?.text ?? '').replace('📄 ', '');
    const count = hh.telegram.botMessages(ana.id).length;
    await hh.telegram.tap(ana, upcoming, first?.text ?? '');
    const messages = await hh.telegram.waitForMessages(ana.id, count + 1);
    const card = [...messages].reverse().find((m) => webAppButtons(m).length > 0);
    const open = card ? webAppButtons(card).find((b) => b.text.includes('Open in app')) : undefined;
    expect(open?.url).toMatch(/^https:\/\/exhale\.example\/app\/subscriptions\/sub_/);

    const page = await openInTelegram(
      browser,
      hh.server.url,
      anaData,
      'light',
      onServer(open?.url ?? ''),
    );
    await settled(page, 'subscription');
    expect(await page.textContent('body')).toContain(name);
    await screenshot(page, 'deeplink-subscription-en-light');
    await page.context().close();
  });

  it('a start parameter opens its screen; an unknown or stale one opens the Overview with a note', async () => {
    const [netflix] = (
      await api<{ items: Sub[] }>(hh.server.url, benData, 'list_subscriptions', { text: 'Netflix' })
    ).items;
    const byParam = await openInTelegram(
      browser,
      hh.server.url,
      benData,
      'dark',
      '/app/',
      `sub_${netflix?.id ?? ''}`,
    );
    await settled(byParam, 'subscription');
    expect(await byParam.textContent('body')).toContain('Netflix');
    await byParam.context().close();

    for (const [path, param] of [
      ['/app/', 'nonsense_42'],
      ['/app/subscriptions/sub_gone', undefined],
      ['/app/import/upl_gone', undefined],
    ] as const) {
      const page = await openInTelegram(browser, hh.server.url, benData, 'dark', path, param);
      await settled(page, 'overview');
      const toast = page.locator('[data-testid="toast"]');
      await toast.waitFor();
      expect(await toast.textContent()).toContain('resumen');
      if (param) await screenshot(page, 'deeplink-stale-es-dark');
      await page.context().close();
    }
  });
});

describe('what /api/me says about the bot', () => {
  it('names the bot’s username from getMe at start, for invite and share links', async () => {
    const res = await fetch(`${hh.server.url}/api/me`, {
      headers: { authorization: `tma ${anaData}` },
    });
    const me = (await res.json()) as { botUsername: string | null };
    expect(me.botUsername).toBe('exhale_test_bot');
  });
});
