import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  ANA_TG,
  api,
  BEN_TG,
  buildApp,
  type Household,
  launchBrowser,
  openInTelegram,
  settled,
  signInitData,
  startHousehold,
} from '../helpers/miniapp.ts';

/**
 * Times in the app are in the household's time zone (the demo household's Europe/Madrid), as
 * chat's /activity shows them, whatever zone the browser is in (here New York and Tokyo), in the
 * reader's format (en and es).
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

interface Entry {
  created_at: string;
  summary: string;
}

const CASES = [
  { tg: ANA_TG, lang: 'en', browserZone: 'America/New_York' },
  { tg: BEN_TG, lang: 'es', browserZone: 'Asia/Tokyo' },
] as const;

describe('times in the household’s time zone (Chromium)', () => {
  for (const c of CASES) {
    it(`shows Activity's times in Europe/Madrid with the browser in ${c.browserZone} (${c.lang})`, async () => {
      const initData = signInitData(hh.telegram.token, c.tg);
      const household = await api<{ time_zone: string }>(hh.server.url, initData, 'get_household');
      expect(household.time_zone).toBe('Europe/Madrid');
      const { items } = await api<{ items: Entry[] }>(hh.server.url, initData, 'list_activity', {
        limit: 1,
      });
      const latest = items[0]!;
      const page = await openInTelegram(
        browser,
        hh.server.url,
        initData,
        'light',
        '/app/activity',
        undefined,
        { timezoneId: c.browserZone },
      );
      await settled(page, 'activity');
      const shown =
        (await page.locator('[data-testid="activity-row"] .sub').first().textContent()) ?? '';
      const when = (zone: string): string =>
        new Intl.DateTimeFormat(c.lang, {
          day: 'numeric',
          month: 'short',
          hour: '2-digit',
          minute: '2-digit',
          timeZone: zone,
        }).format(new Date(latest.created_at));
      // The browser really is elsewhere, and its own clock reads otherwise.
      expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(
        c.browserZone,
      );
      expect(when(c.browserZone)).not.toBe(when('Europe/Madrid'));
      expect(shown.replace(/\s/g, ' ')).toContain(when('Europe/Madrid').replace(/\s/g, ' '));
      await page.context().close();
    }, 60_000);
  }
});
