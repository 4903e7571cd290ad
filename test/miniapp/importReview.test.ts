import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import {
  ANA_TG,
  BEN_TG,
  openInTelegram,
  screenshot,
  settled,
  signInitData,
  tgEmit,
  tgEvents,
  useMiniApp,
} from '../helpers/miniapp.ts';

/**
 * What the import review says about a statement besides its candidates, in Chromium against a
 * real `exhale` (the demo household, Europe/Madrid): a cycle read_statement guessed is marked ❔
 * with its reason; each candidate's next charge is on or after today, never the statement's past;
 * lines it could not read are counted; the tracked subscriptions due in its period but not on it
 * are listed; a statement imported before says when, with no Import and a way back.
 */
const app = useMiniApp();
const ZONE = 'Europe/Madrid';

async function mainButton(page: Page): Promise<string | undefined> {
  const events = await tgEvents(page);
  const last = events.filter((e) => e.name === 'web_app_setup_main_button').at(-1)?.params;
  return last?.is_visible === false || typeof last?.text !== 'string' ? undefined : last.text;
}

/** Day `d` of the month `monthsAgo` months back, YYYY-MM-DD. */
function day(monthsAgo: number, d: number): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, d))
    .toISOString()
    .slice(0, 10);
}

/** Today in the household's zone, YYYY-MM-DD. */
function today(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: ZONE }).format(new Date());
}

/** A day as the app writes it this year ("Jun 3", "3 jun"). */
function shortDay(iso: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${iso}T12:00:00Z`),
  );
}

async function upload(page: Page, name: string, rows: string[]): Promise<void> {
  await page.setInputFiles('[data-testid="statement-file"]', {
    name,
    mimeType: 'text/csv',
    buffer: Buffer.from(['Date,Description,Amount', ...rows].join('\n')),
  });
}

/**
 * Last month of a card, each language its own merchants (Ana and Ben share the household): a
 * weekly delivery, a known service seen once (its cycle a guess), shop buys, and lines whose
 * amount cannot be read.
 */
const CASES = [
  {
    tg: ANA_TG,
    theme: 'light',
    lang: 'en',
    weekly: 'MILKRUN DELIVERY',
    known: 'DUOLINGO PLUS',
    knownId: 'duolingo',
    unreadable: 1,
    unreadableText: /^1 line of the statement could not be read/,
    guess: /check its cycle/,
    next: (date: string) => `next ${date}`,
    absent: /^\d+ subscriptions you track were due in this period but are not on the statement\.$/,
    imported: (date: string) =>
      `This statement was imported on ${date}: its subscriptions and charges are already in Exhale.`,
    back: 'Try another statement',
  },
  {
    tg: BEN_TG,
    theme: 'dark',
    lang: 'es',
    weekly: 'LECHERIA RUTA',
    known: 'DEEZER PREMIUM',
    knownId: 'deezer',
    unreadable: 2,
    unreadableText: /^No se pudieron leer 2 líneas del extracto/,
    guess: /comprueba su ciclo/,
    next: (date: string) => `próximo: ${date}`,
    absent:
      /^\d+ suscripciones que sigues vencían en este periodo, pero no están en el extracto\.$/,
    imported: (date: string) =>
      `Este extracto se importó el ${date}: sus suscripciones y cargos ya están en Exhale.`,
    back: 'Probar con otro extracto',
  },
] as const;

describe('what the import review says besides the candidates (Chromium)', () => {
  for (const c of CASES) {
    it(`marks a guessed cycle, gives next charges from today, counts unreadable lines and lists tracked ones not charged (${c.lang}, ${c.theme})`, async () => {
      const initData = signInitData(app.hh.telegram.token, c.tg);
      const page = await openInTelegram(
        app.browser,
        app.hh.server.url,
        initData,
        c.theme,
        '/app/import',
      );
      await settled(page, 'import-upload');
      const rows = [
        `${day(1, 2)},"CORNER BAKERY",-6.40`,
        ...[3, 10, 17, 24].map((d) => `${day(1, d)},"${c.weekly}",-8.50`),
        `${day(1, 6)},"${c.known}",-12.99`,
        ...Array.from({ length: c.unreadable }, (_, i) => `${day(1, 12 + i)},"CORNER SHOP",n/a`),
        `${day(1, 28)},"LIDL 0391",-23.10`,
      ];
      await upload(page, `review-${c.lang}.csv`, rows);
      await settled(page, 'import');
      const known = page.locator(`[data-testid="candidate"][data-candidate^="${c.knownId}"]`);
      await known.waitFor();

      // The guess is marked, with read_statement's reason in full.
      expect(await known.locator('[data-testid="cycle-guessed"]').count()).toBe(1);
      const why = known.locator('[data-testid="cycle-why"]');
      expect((await why.textContent())?.trim()).toMatch(c.guess);
      expect(await why.evaluate((el) => el.scrollWidth > el.clientWidth + 1)).toBe(false);
      const weekly = page.locator('[data-testid="candidate"]').filter({ hasNotText: c.known });
      expect(await weekly.count()).toBeGreaterThan(0);
      expect(await weekly.first().locator('[data-testid="cycle-guessed"]').count()).toBe(0);

      // Its next charge: its series (from the 6th of last month, monthly) on or after today.
      const t = today();
      const sixth = [day(0, 6), day(-1, 6)].find((d) => d >= t) ?? '';
      expect(await known.locator('.sub').first().textContent()).toContain(
        c.next(shortDay(sixth, c.lang)),
      );

      const note = page.locator('[data-testid="unreadable"]');
      expect((await note.textContent())?.trim()).toMatch(c.unreadableText);

      // The demo's monthly subscriptions in euros, due last month and not on this card.
      expect((await page.locator('[data-testid="absent-text"]').textContent())?.trim()).toMatch(
        c.absent,
      );
      expect(await page.locator('[data-testid="absent-row"]').count()).toBeGreaterThan(1);
      await screenshot(page, `import-review-${c.lang}-${c.theme}`);
      await page.locator('[data-testid="absent"]').scrollIntoViewIfNeeded();
      await screenshot(page, `import-review-absent-${c.lang}-${c.theme}`);
      await page.context().close();
    }, 60_000);

    it(`says a statement was imported before and when, with no Import and a way back (${c.lang}, ${c.theme})`, async () => {
      const initData = signInitData(app.hh.telegram.token, c.tg);
      let page = await openInTelegram(
        app.browser,
        app.hh.server.url,
        initData,
        c.theme,
        '/app/import',
      );
      await settled(page, 'import-upload');
      const rows = [
        `${day(1, 2)},"CORNER BAKERY ${c.lang}",-6.40`,
        `${day(1, 9)},"${c.lang === 'en' ? 'DAZN' : 'PATREON'}",-9.99`,
        `${day(1, 27)},"LIDL 0391",-23.10`,
      ];
      await upload(page, `twice-${c.lang}.csv`, rows);
      await settled(page, 'import');
      await page.locator('[data-testid="candidate"]').first().waitFor();
      await expect.poll(() => mainButton(page)).toBeDefined();
      await tgEmit(page, 'main_button_pressed');
      await settled(page, 'subscriptions');
      await page.context().close();

      // The same file again, later.
      page = await openInTelegram(app.browser, app.hh.server.url, initData, c.theme, '/app/import');
      await settled(page, 'import-upload');
      await upload(page, `twice-${c.lang}.csv`, rows);
      await settled(page, 'import');
      const notice = page.locator('[data-testid="imported-before"]');
      await notice.waitFor();
      expect((await notice.locator('p').textContent())?.trim()).toBe(
        c.imported(shortDay(today(), c.lang)),
      );
      expect(await page.locator('[data-testid="candidate"]').count()).toBe(0);
      await expect.poll(() => mainButton(page)).toBeUndefined();
      await screenshot(page, `import-imported-before-${c.lang}-${c.theme}`);
      const back = page.locator('[data-testid="import-back"]');
      expect((await back.textContent())?.trim()).toBe(c.back);
      await back.click();
      await settled(page, 'import-upload');
      await page.context().close();
    }, 60_000);
  }
});
