import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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
} from '../helpers/miniapp.ts';

/**
 * The import review's corrections, in Chromium against a real `exhale` (the demo household):
 * a candidate's name and amount are changed before Import; an amount the app cannot read gets
 * the app's sentence (a decimal comma counts), one it reads but the op refuses gets
 * import_candidates' sentence, each under that candidate's amount, in the member's language,
 * with nothing imported; corrected, the subscription is created as edited.
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

async function mainButton(page: Page): Promise<string | undefined> {
  const events = await tgEvents(page);
  const last = events.filter((e) => e.name === 'web_app_setup_main_button').at(-1)?.params;
  return typeof last?.text === 'string' ? last.text : undefined;
}

/**
 * Four months ending this month of a card with a gym and a language app among one-off buys;
 * each language's run its own merchants (Ben and Ana share the household: Ana's import would
 * make Ben's the same ones already tracked).
 */
const MERCHANTS = {
  en: { gym: 'PULSE FITNESS', gymId: 'pulse-fitness', app: 'BABBEL', appName: /babbel/i },
  es: { gym: 'VIVA GYM', gymId: 'viva-gym', app: 'BUSUU', appName: /busuu/i },
} as const;

function statementCsv(lang: keyof typeof MERCHANTS): string {
  const { gym, app } = MERCHANTS[lang];
  const now = new Date();
  const day = (monthsAgo: number, d: number): string =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, d))
      .toISOString()
      .slice(0, 10);
  const rows: string[] = ['Date,Description,Amount'];
  for (let m = 4; m >= 1; m--) {
    rows.push(`${day(m, 3)},"SQ *${gym} 40${m} Leeds",-29.00`);
    rows.push(`${day(m, 11)},"${app} 77${m}",-12.99`);
    rows.push(`${day(m, 5 + 4 * m)},"ALDI 03${m}",-${30 + 17 * m}.20`);
  }
  return rows.join('\n');
}

interface Sub {
  id: string;
  name: string;
  amount: string;
  cycle: { unit: string; every: number };
  category: { name: string } | null;
}

describe('correcting candidates in the import review (Chromium)', () => {
  for (const [tg, theme, lang] of [
    [ANA_TG, 'light', 'en'],
    [BEN_TG, 'dark', 'es'],
  ] as const) {
    it(`edits a name and an amount, shows the app's and then the op's error under the field, and imports as edited (${lang}, ${theme})`, async () => {
      const initData = signInitData(hh.telegram.token, tg);
      const before = await api<{ items: Sub[] }>(hh.server.url, initData, 'list_subscriptions');
      const page = await openInTelegram(browser, hh.server.url, initData, theme, '/app/more');
      await settled(page, 'more');
      await page.setInputFiles('[data-testid="statement-file"]', {
        name: `gym-${lang}.csv`,
        mimeType: 'text/csv',
        buffer: Buffer.from(statementCsv(lang)),
      });
      await settled(page, 'import');
      // By its id: its text changes as its name is edited.
      const gym = page.locator(
        `[data-testid="candidate"][data-candidate^="${MERCHANTS[lang].gymId}"]`,
      );
      await gym.waitFor();
      const label = lang === 'en' ? 'Import' : 'Importar';
      const rows = await page.locator('[data-testid="candidate"]').count();
      await expect.poll(() => mainButton(page)).toBe(`${label} ${rows}`);

      // Fields open on Edit, so a long list stays short.
      expect(await gym.locator('input[name="name"]').count()).toBe(0);
      await gym.locator('[data-testid="edit-candidate"]').click();
      const newName = lang === 'en' ? 'Pulse Gym (family)' : 'Gimnasio Pulse (familia)';
      await gym.locator('input[name="name"]').fill(newName);
      await gym.locator('input[name="amount"]').fill('thirty');
      await gym.locator('input[name="category"]').fill(lang === 'en' ? 'Health' : 'Salud');
      // The row's title follows the name being typed.
      await expect.poll(() => gym.locator('.title').textContent()).toBe(newName);
      await tgEmit(page, 'main_button_pressed');
      const error = gym.locator('[data-testid="error-amount"]');
      await error.waitFor();
      expect(await page.locator('[data-testid="toast"]').textContent()).toContain(
        lang === 'en' ? 'Check the fields marked in red' : 'Revisa los campos en rojo',
      );
      // The app's own sentence, in the member's language: its fields take a decimal comma, so
      // the op's sentence about the dot form would be wrong here.
      expect((await error.textContent())?.trim()).toBe(
        lang === 'en'
          ? 'Enter an amount like 12.99 or 12,99.'
          : 'Escribe un importe como 12,99 o 12.99.',
      );
      await screenshot(page, `import-edit-error-${lang}-${theme}`);
      // Refused as a whole: nothing was imported, the review is still open.
      const still = await api<{ items: Sub[] }>(hh.server.url, initData, 'list_subscriptions');
      expect(still.items.length).toBe(before.items.length);
      expect(await page.locator('[data-screen="import"]').count()).toBe(1);

      // An amount the app reads but the op refuses (three decimals): the op's sentence, which
      // names no separator, and still nothing imported.
      await gym.locator('input[name="amount"]').fill('31,555');
      await tgEmit(page, 'main_button_pressed');
      await expect
        .poll(async () => (await error.count()) > 0 && (await error.textContent())?.trim())
        .toMatch(lang === 'en' ? /at most 2 decimals/ : /como máximo 2 decimales/);
      expect(await error.textContent()).not.toMatch(/15[.,]99|12[.,]99/);
      const still2 = await api<{ items: Sub[] }>(hh.server.url, initData, 'list_subscriptions');
      expect(still2.items.length).toBe(before.items.length);

      // A decimal comma as people type it: the app sends "31.50".
      await gym.locator('input[name="amount"]').fill('31,50');
      // Corrected, its error goes.
      expect(await error.count()).toBe(0);
      await gym.locator('input[name="every"]').fill('4');
      await gym.locator('select[name="unit"]').selectOption('week');
      await screenshot(page, `import-edit-${lang}-${theme}`);
      await tgEmit(page, 'main_button_pressed');
      await settled(page, 'subscriptions');
      await page.locator('[data-testid="toast"]').waitFor();

      const after = await api<{ items: Sub[] }>(hh.server.url, initData, 'list_subscriptions');
      expect(after.items.length).toBe(before.items.length + rows);
      const created = after.items.find((s) => s.name === newName);
      expect(created).toBeDefined();
      const detail = await api<Sub>(hh.server.url, initData, 'get_subscription', {
        id: created?.id ?? '',
      });
      expect(detail).toMatchObject({
        name: newName,
        amount: '31.50',
        cycle: { unit: 'week', every: 4 },
        category: { name: lang === 'en' ? 'Health' : 'Salud' },
      });
      // The one not edited is imported as the statement read it.
      expect(
        after.items.some((s) => MERCHANTS[lang].appName.test(s.name) && s.amount === '12.99'),
      ).toBe(true);
      await page.context().close();
    });
  }
});
