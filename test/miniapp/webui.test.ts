import { randomBytes } from 'node:crypto';
import path from 'node:path';

import knex, { type Knex } from 'knex';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { TgMessage } from '../fakes/telegramBotApi.ts';
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
  tgEvents,
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
    for (const [who, theme, says] of [
      ['ana', 'light', 'CSV'],
      ['ben', 'dark', 'CSV'],
    ] as const) {
      const initData = who === 'ana' ? anaData : benData;
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

/** The process's SQLite file, for setup the test cannot do through an op. */
async function withDatabase(run: (db: Knex) => Promise<unknown>): Promise<void> {
  const db = knex({
    client: 'sqlite3',
    connection: { filename: path.join(hh.dataDir, 'exhale.sqlite') },
    useNullAsDefault: true,
  });
  try {
    await run(db);
  } finally {
    await db.destroy();
  }
}

/** Opens a screen in Telegram and waits for its data. */
async function openScreen(initData: string, theme: Theme, path: string, screen: string) {
  const page = await openInTelegram(browser, hh.server.url, initData, theme, path);
  page.setDefaultTimeout(10_000);
  await settled(page, screen);
  return page;
}

interface Rate {
  currency: string;
  source: string | null;
  per_eur: string | null;
}
const usdRate = async (): Promise<Rate | undefined> =>
  (await api<{ items: Rate[] }>(hh.server.url, anaData, 'list_exchange_rates', {})).items.find(
    (r) => r.currency === 'USD',
  );

describe('Settings: exchange rates and the assistant', () => {
  it('the owner sets a rate by hand (the app’s sentence for a rate it cannot read, the op’s for a future date, under their fields first), and Undo removes it (en, light)', async () => {
    const before = await usdRate();
    const page = await openScreen(anaData, 'light', '/app/settings', 'settings');
    await page.click('[data-testid="rate-set-USD"]');
    expect(await page.inputValue('[data-testid="rate-currency"]')).toBe('USD');
    await page.fill('[data-testid="rate-value"]', 'abc');
    await page.click('[data-testid="rate-save"]');
    const bad = page.locator('[data-testid="error-rate"]');
    await bad.waitFor();
    expect((await bad.textContent())?.trim()).toBe(
      'Enter a rate above 0 like 1.0939 or 1,0939: units of the currency per 1 EUR.',
    );
    expect((await usdRate())?.per_eur).toBe(before?.per_eur);
    await page.locator('[data-testid="rates"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-rate-error-en-light');
    // A rate the app reads (a comma) from a day the op refuses: its sentence under the date.
    await page.fill('[data-testid="rate-value"]', '1,25');
    await page.fill('[data-testid="rate-date"]', '2099-01-01');
    await page.click('[data-testid="rate-save"]');
    const badDate = page.locator('[data-testid="error-date"]');
    await badDate.waitFor();
    expect((await badDate.textContent())?.trim()).toBe("A rate can't start in the future.");
    expect(await bad.count()).toBe(0);
    expect((await usdRate())?.per_eur).toBe(before?.per_eur);
    await page.fill('[data-testid="rate-date"]', '');

    await page.fill('[data-testid="rate-value"]', '1.2500');
    await page.click('[data-testid="rate-save"]');
    const toast = page.locator('[data-testid="toast"]');
    await toast.waitFor();
    expect(await toast.textContent()).toContain('USD rate set');
    await expect.poll(async () => (await usdRate())?.per_eur).toBe('1.25');
    expect((await usdRate())?.source).toBe('manual');
    await page.click('[data-testid="undo"]');
    await expect.poll(async () => (await usdRate())?.per_eur).toBe(before?.per_eur);
    await page.context().close();
  });

  it('the owner sets the assistant; the key is write-only, shown as set or not set, never sent back (en, light)', async () => {
    const page = await openScreen(anaData, 'light', '/app/settings', 'settings');
    const state = page.locator('[data-testid="ai-key-state"]');
    expect(await state.textContent()).toBe('not set');
    await page.selectOption('[data-testid="ai-provider"]', 'openai');
    await page.fill('[data-testid="ai-model"]', 'llama3.2');
    await page.fill('[data-testid="ai-base-url"]', 'ftp://nowhere');
    await page.click('[data-testid="ai-save"]');
    await page.locator('[data-testid="error-base_url"]').waitFor();
    await page.locator('[data-testid="assistant"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-assistant-error-en-light');

    await page.fill('[data-testid="ai-base-url"]', 'http://localhost:11434');
    await page.fill('[data-testid="ai-key"]', 'sk-test-webui-secret');
    await page.click('[data-testid="ai-save"]');
    await expect.poll(() => state.textContent()).toBe('set');
    expect(await page.inputValue('[data-testid="ai-key"]')).toBe('');
    const settings = await api<Record<string, unknown>>(
      hh.server.url,
      anaData,
      'get_assistant_settings',
      {},
    );
    expect(settings).toMatchObject({ provider: 'openai', model: 'llama3.2', api_key_set: true });
    expect(JSON.stringify(settings)).not.toContain('sk-test-webui-secret');
    expect(await page.content()).not.toContain('sk-test-webui-secret');
    await page.locator('[data-testid="assistant"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-assistant-en-light');
    await page.context().close();
  });

  it('a member sees the rates read-only and no assistant settings (es, dark)', async () => {
    const page = await openScreen(benData, 'dark', '/app/settings', 'settings');
    expect(await page.locator('[data-testid="rate-save"]').count()).toBe(0);
    expect(await page.locator('[data-testid="rate-set-USD"]').count()).toBe(0);
    expect(await page.textContent('[data-testid="rates"]')).toContain('administra');
    expect(await page.locator('[data-testid="ai-save"]').count()).toBe(0);
    expect(await page.textContent('[data-testid="assistant-members"]')).toContain('asistente');
    await page.locator('[data-testid="assistant-members"]').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-member-es-dark');
    await page.context().close();
  });
});

describe('Connect an agent: the remote URL and the connected apps', () => {
  for (const [who, theme, lang] of [
    ['ana', 'light', 'en'],
    ['ben', 'dark', 'es'],
  ] as const) {
    it(`shows the remote URL with each client's steps, what https needs, a connect code, and disconnects an app with Undo (${lang}, ${theme})`, async () => {
      const data = who === 'ana' ? anaData : benData;
      const clientName = `Claude ${lang}`;
      const client = 'https://claude.ai/oauth/mcp-oauth-client-metadata';
      // The grant the consent page makes, and the access token the client got for it (setup:
      // the OAuth flow itself is tested in test/mcp/oauth/).
      const grant = await api<{ id: string }>(hh.server.url, data, 'connect_app', {
        client,
        client_name: clientName,
        scope: 'write',
        resource: `${hh.server.url}/mcp`,
      });
      await withDatabase((db) =>
        db('oauth_tokens').insert({
          hash: randomBytes(32).toString('hex'),
          kind: 'access',
          grant_id: grant.id,
          client_id: client,
          scope: 'write',
          resource: `${hh.server.url}/mcp`,
          created_at: new Date().toISOString(),
          expires_at: new Date(Date.now() + 3_600_000).toISOString(),
        }),
      );
      const page = await openScreen(data, theme, '/app/connect', 'connect');
      await page.click('[data-client="remote"]');
      expect((await page.textContent('[data-testid="remote-url"]'))?.trim()).toBe(
        `${hh.server.url}/mcp`,
      );
      // The loopback address is not https: the screen says what is needed.
      expect(await page.textContent('[data-testid="remote-needs-https"]')).toContain(
        'EXHALE_PUBLIC_URL',
      );
      for (const c of ['claude_ai', 'chatgpt', 'claude_desktop', 'grok']) {
        await page.click(`[data-remote="${c}"]`);
        const steps = (await page.textContent('[data-testid="remote-steps"]')) ?? '';
        expect(steps).toContain('OAuth');
        expect(steps).toContain('/connect');
      }
      await page.click('[data-remote="claude_ai"]');
      await page.click('[data-testid="get-code"]');
      const code = page.locator('[data-testid="connect-code-value"]');
      await code.waitFor();
      expect((await code.textContent())?.trim()).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
      await screenshot(page, `connect-remote-${lang}-${theme}`);

      const row = page.locator('[data-testid="app-row"]', { hasText: clientName });
      await row.waitFor();
      await row.scrollIntoViewIfNeeded();
      await screenshot(page, `connect-apps-${lang}-${theme}`);
      await row.locator('[data-testid="disconnect"]').click();
      await page.locator('[data-testid="sheet"]').waitFor();
      await screenshot(page, `connect-disconnect-sheet-${lang}-${theme}`);
      await page.click('[data-testid="confirm"]');
      await page.locator('[data-testid="toast"]').waitFor();
      await expect.poll(() => row.count()).toBe(0);
      const listed = async () =>
        (
          await api<{ items: Array<{ client_name: string }> }>(
            hh.server.url,
            data,
            'list_connected_apps',
            {},
          )
        ).items.map((a) => a.client_name);
      expect(await listed()).not.toContain(clientName);
      await page.click('[data-testid="undo"]');
      await expect.poll(listed).toContain(clientName);
      await page.context().close();
    });
  }
});
