import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import {
  ANA_TG,
  BEN_TG,
  openInTelegram,
  screenshot,
  settled,
  signInitData,
  tgEvents,
  useMiniApp,
} from '../helpers/miniapp.ts';

/**
 * The import review of a statement whose charges match subscriptions the household tracks, in
 * Chromium against a real `exhale` (the demo household: Netflix, Spotify Family at €17.99):
 * each such row names the tracked subscription and its price change in full, wrapping at phone
 * width; a change to another name's price ("SPOTIFY" → Spotify Family) starts off, one to the
 * same name's starts on (read_statement's rule); a statement with nothing found shows why and a
 * way back to the upload, with no Import; the summary's dates carry a past year; `/app/import`
 * opened directly is the upload.
 */
const app = useMiniApp();

async function mainButton(page: Page): Promise<string | undefined> {
  const events = await tgEvents(page);
  const last = events.filter((e) => e.name === 'web_app_setup_main_button').at(-1)?.params;
  return last?.is_visible === false || typeof last?.text !== 'string' ? undefined : last.text;
}

/** Four months ending last month: SPOTIFY at 10.99 and NETFLIX at 17.99 on the 5th and 12th. */
function trackedCsv(): string {
  const now = new Date();
  const day = (monthsAgo: number, d: number): string =>
    new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsAgo, d))
      .toISOString()
      .slice(0, 10);
  const rows = ['Date,Description,Amount'];
  for (let m = 4; m >= 1; m--) {
    rows.push(`${day(m, 12)},"SPOTIFY P0${m}",-10.99`);
    rows.push(`${day(m, 5)},"NETFLIX.COM",-17.99`);
  }
  return rows.join('\n');
}

/** September 2017: one-off buys only. */
const NOTHING_CSV = [
  'Date,Description,Amount',
  '2017-09-01,"ALDI 031",-31.20',
  '2017-09-14,"IKEA 77",-149.00',
  '2017-09-28,"SHELL 5",-52.10',
].join('\n');

async function uploadFrom(page: Page, name: string, csv: string): Promise<void> {
  await page.setInputFiles('[data-testid="statement-file"]', {
    name,
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
}

/** Day-first dates and "$" amounts: nothing says which dollar (the US writes month first). */
const DOLLARS_CSV = [
  'Date,Description,Amount',
  '15/11/2025,"CRUNCHYROLL MEMBERSHIP",-$7.99',
  '15/12/2025,"CRUNCHYROLL MEMBERSHIP",-$7.99',
  '15/01/2026,"CRUNCHYROLL MEMBERSHIP",-$7.99',
  '15/02/2026,"CRUNCHYROLL MEMBERSHIP",-$7.99',
].join('\n');

const CASES = [
  {
    tg: ANA_TG,
    theme: 'light',
    lang: 'en',
    spotify: /^Updates Spotify Family: €17\.99 → €10\.99 a month$/,
    netflix: /^Updates Netflix: €\d+\.\d\d → €17\.99 a month$/,
    import1: 'Import 1',
    period: /3 transactions from Sep 1, 2017 to Sep 28, 2017/,
    whichCurrency: /Which currency is it in\?/,
  },
  {
    tg: BEN_TG,
    theme: 'dark',
    lang: 'es',
    spotify: /^Actualiza Spotify Family: 17,99\s€ → 10,99\s€ al mes$/,
    netflix: /^Actualiza Netflix: \d+,\d\d\s€ → 17,99\s€ al mes$/,
    import1: 'Importar 1',
    period: /3 movimientos del 1 sept 2017 al 28 sept 2017/,
    whichCurrency: /¿En qué moneda está\?/,
  },
] as const;

describe('reviewing a statement that changes tracked subscriptions (Chromium)', () => {
  for (const c of CASES) {
    it(`names the tracked subscription and the change, and leaves another name's off (${c.lang}, ${c.theme})`, async () => {
      const initData = signInitData(app.hh.telegram.token, c.tg);
      // Opened directly, /app/import is the upload.
      const page = await openInTelegram(
        app.browser,
        app.hh.server.url,
        initData,
        c.theme,
        '/app/import',
      );
      await settled(page, 'import-upload');
      await screenshot(page, `import-upload-${c.lang}-${c.theme}`);
      await uploadFrom(page, `tracked-${c.lang}.csv`, trackedCsv());
      await settled(page, 'import');
      const spotify = page.locator('[data-testid="candidate"][data-candidate^="spotify"]');
      const netflix = page.locator('[data-testid="candidate"][data-candidate^="netflix"]');
      await spotify.waitFor();
      const spotifyLine = spotify.locator('[data-testid="tracked-change"]');
      expect((await spotifyLine.textContent())?.trim()).toMatch(c.spotify);
      expect(
        (await netflix.locator('[data-testid="tracked-change"]').textContent())?.trim(),
      ).toMatch(c.netflix);
      // Whole at 390 px: the line wraps, nothing is cut off.
      const clipped = await spotifyLine.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
      expect(clipped).toBe(false);
      // Another name's price: off until the person opts in; the same name's: on.
      expect(await spotify.locator('input.toggle').isChecked()).toBe(false);
      expect(await netflix.locator('input.toggle').isChecked()).toBe(true);
      await expect.poll(() => mainButton(page)).toBe(c.import1);
      await screenshot(page, `import-tracked-${c.lang}-${c.theme}`);
      await page.context().close();
    }, 60_000);

    it(`shows why nothing was found and a way back, with no Import (${c.lang}, ${c.theme})`, async () => {
      const initData = signInitData(app.hh.telegram.token, c.tg);
      const page = await openInTelegram(
        app.browser,
        app.hh.server.url,
        initData,
        c.theme,
        '/app/more',
      );
      await settled(page, 'more');
      await uploadFrom(page, `nothing-${c.lang}.csv`, NOTHING_CSV);
      await settled(page, 'import');
      await page.locator('[data-testid="empty"]').waitFor();
      expect(await page.locator('[data-screen="import"] .hint').first().textContent()).toMatch(
        c.period,
      );
      await expect.poll(() => mainButton(page)).toBeUndefined();
      await screenshot(page, `import-nothing-${c.lang}-${c.theme}`);
      await page.click('[data-testid="import-back"]');
      await settled(page, 'import-upload');
      await page.context().close();
    }, 60_000);

    it(`asks which currency a "$" statement sent from More is in, then reviews it in the one tapped (${c.lang}, ${c.theme})`, async () => {
      const initData = signInitData(app.hh.telegram.token, c.tg);
      const page = await openInTelegram(
        app.browser,
        app.hh.server.url,
        initData,
        c.theme,
        '/app/more',
      );
      await settled(page, 'more');
      await uploadFrom(page, `dollars-${c.lang}.csv`, DOLLARS_CSV);
      await settled(page, 'import-upload');
      const question = page.locator('[data-testid="currency-question"]');
      await question.waitFor();
      expect(await question.locator('p').textContent()).toMatch(c.whichCurrency);
      await screenshot(page, `import-currency-${c.lang}-${c.theme}`);
      await page.click('[data-testid="currency-CAD"]');
      await settled(page, 'import');
      const crunchyroll = page.locator('[data-testid="candidate"][data-candidate^="crunchyroll"]');
      await crunchyroll.waitFor();
      expect(await crunchyroll.textContent()).toMatch(/CA\$|CAD/);
      await page.context().close();
    }, 60_000);
  }
});
