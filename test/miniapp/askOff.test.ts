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
 * Ask with the assistant off (the demo household has no model), in Chromium against a real
 * `exhale`: the empty screen suggests commands that work, each a tap, and says where the assistant
 * is turned on (Settings; the owner gets the way there); free text answers with the web channel's
 * command list, which leaves out /start, /web and /assistant.
 */
const app = useMiniApp();

const CASES = [
  {
    tg: ANA_TG,
    theme: 'light',
    lang: 'en',
    owner: true,
    off: 'The assistant is off',
    question: 'What do I pay for streaming?',
    add: '/add Netflix 15.99 monthly',
    freeText: 'I only understand commands',
  },
  {
    tg: BEN_TG,
    theme: 'dark',
    lang: 'es',
    owner: false,
    off: 'El asistente está apagado',
    question: '¿Cuánto pago por streaming?',
    add: '/add Netflix 15,99 mensual',
    freeText: 'solo entiendo comandos',
  },
] as const;

describe('Ask with the assistant off (Chromium)', () => {
  for (const c of CASES) {
    it(`suggests commands that work and lists only the web's commands (${c.lang}, ${c.theme})`, async () => {
      const initData = signInitData(app.hh.telegram.token, c.tg);
      const page = await openInTelegram(
        app.browser,
        app.hh.server.url,
        initData,
        c.theme,
        '/app/ask',
      );
      await settled(page, 'ask');
      await page.locator('[data-testid="ask-off"]').waitFor();
      expect(await page.textContent('[data-testid="ask-off"]')).toContain(c.off);
      // The /add example in the reader's words and number format (chat reads "15,99 mensual").
      expect(
        (await page.locator('[data-testid="suggestion"]').allTextContents()).map((s) => s.trim()),
      ).toEqual(['/list', '/totals', '/upcoming', c.add]);
      expect(await page.locator('[data-testid="ask-settings"]').count()).toBe(c.owner ? 1 : 0);
      await screenshot(page, `ask-off-${c.lang}-${c.theme}`);

      // A suggestion is a tap: /totals answers with the totals.
      await page.click('[data-testid="suggestion"]:has-text("/totals")');
      await page.locator('.bubble.bot[data-testid="bubble"]').first().waitFor();
      expect(
        (await page.locator('.bubble.bot[data-testid="bubble"]').first().textContent())?.length,
      ).toBeGreaterThan(10);

      // Free text (once /totals is answered): the command list of this channel only.
      const bots = page.locator('.bubble.bot[data-testid="bubble"]');
      await page.locator('[data-testid="ask-input"]:not([disabled])').waitFor();
      const before = await bots.count();
      await page.fill('[data-testid="ask-input"]', c.question);
      await page.click('[data-testid="ask-send"]');
      await expect.poll(() => bots.count()).toBeGreaterThan(before);
      await page.locator('[data-testid="ask-input"]:not([disabled])').waitFor();
      const answer = (await bots.last().textContent()) ?? '';
      expect(answer).toContain('/list');
      expect(answer).toContain('/add');
      for (const gone of ['/start', '/web', '/assistant']) expect(answer).not.toContain(`${gone} `);
      await screenshot(page, `ask-off-answer-${c.lang}-${c.theme}`);

      // The /add example is a command that works here, in this language: a card about Netflix,
      // not the free-text answer.
      await page.reload();
      await settled(page, 'ask');
      await page.click(`[data-testid="suggestion"]:has-text("${c.add}")`);
      await page.locator('.bubble.bot[data-testid="bubble"]').first().waitFor();
      const added =
        (await page.locator('.bubble.bot[data-testid="bubble"]').first().textContent()) ?? '';
      expect(added).toContain('Netflix');
      expect(added).not.toContain(c.freeText);
      await page.context().close();
    }, 60_000);
  }
});
