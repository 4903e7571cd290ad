import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';

import {
  ANA_TG,
  BEN_TG,
  openInTelegram,
  screenshot,
  settled,
  signInitData,
  useMiniApp,
} from '../helpers/miniapp.ts';

/**
 * The Subscriptions list and the tab bar at phone width (390 px), in Chromium against a real
 * `exhale` (the demo household: a cancelled "Duolingo Super Family", a shared Spotify Family), in
 * English and Spanish, light and dark: a long name truncates while its status badge and the price
 * stay whole; the share line wraps, never cut off; the tab labels keep a gap ("Suscripciones",
 * "Calendario").
 */
const app = useMiniApp();

async function box(l: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const b = await l.boundingBox();
  if (!b) throw new Error('not shown');
  return b;
}

/** Whether an element's text is cut (wider than its box). */
const cut = (l: Locator): Promise<boolean> =>
  l.evaluate((el) => el.scrollWidth > el.clientWidth + 1);

describe('rows and tabs at 390 px (Chromium)', () => {
  for (const [tg, lang] of [
    [ANA_TG, 'en'],
    [BEN_TG, 'es'],
  ] as const) {
    for (const theme of ['light', 'dark'] as const) {
      it(`keeps badges, prices, share lines and tab labels whole (${lang}, ${theme})`, async () => {
        const initData = signInitData(app.hh.telegram.token, tg);
        const page = await openInTelegram(
          app.browser,
          app.hh.server.url,
          initData,
          theme,
          '/app/subscriptions',
        );
        await settled(page, 'subscriptions');
        const rows = page.locator('[data-testid="sub-row"]');
        const badged = rows.filter({ has: page.locator('[data-testid="sub-badge"]') });
        expect(await badged.count()).toBeGreaterThan(0);
        for (const row of await badged.all()) {
          const badge = row.locator('[data-testid="sub-badge"]');
          const price = row.locator('[data-testid="sub-price"]');
          expect(await cut(badge)).toBe(false);
          // The badge ends before the price begins, inside the row.
          expect((await box(badge)).x + (await box(badge)).width).toBeLessThanOrEqual(
            (await box(price)).x,
          );
        }
        for (const row of await rows.all()) {
          expect(await cut(row.locator('[data-testid="sub-price"] .title'))).toBe(false);
          expect(await cut(row.locator('[data-testid="sub-line"]'))).toBe(false);
        }
        // The long cancelled one: its name gives way, not its badge.
        const duolingo = rows.filter({ hasText: 'Duolingo' });
        expect(await duolingo.locator('[data-testid="sub-badge"]').textContent()).toBe(
          lang === 'en' ? 'Cancelled' : 'Dada de baja',
        );
        // Tab labels never touch.
        const labels = await page.locator('.tabbar .label').all();
        for (let i = 1; i < labels.length; i++) {
          const left = await box(labels[i - 1]!);
          const right = await box(labels[i]!);
          expect(right.x - (left.x + left.width)).toBeGreaterThanOrEqual(6);
          expect(await cut(labels[i]!)).toBe(false);
        }
        await screenshot(page, `layout-subscriptions-${lang}-${theme}`);
        await page.context().close();
      }, 60_000);
    }
  }
});
