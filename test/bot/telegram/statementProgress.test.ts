import sharp from 'sharp';
import { afterAll, afterEach, describe, expect, it } from 'vitest';

import { stopOcr } from '../../../core/imports/statements/ocr/worker.ts';
import type { TgMessage, TgUser } from '../../fakes/telegramBotApi.ts';
import {
  type ScannedPage,
  scannedPdfPages,
  statementPicture,
} from '../../helpers/statements/pictures.ts';
import { createWorld, seedHousehold, type World } from '../harness.ts';

/**
 * The progress message of a statement read by OCR, through the real bot and the fake Bot API:
 * one message, edited step by step ("Reading page 2 of 3…", "Reading the picture… 40%", "Looking
 * for subscriptions…"), then edited into the review card. The throttle itself (at most one edit a
 * second, only when the text changes) is specified with fake timers in
 * test/core/chat/progress.test.ts; here it is set to 0 so every step shows, or to a minute so
 * none does.
 */

/** A statement of four months of the same two subscriptions, the months split over `parts`. */
function statementLines(parts: number): string[][] {
  const months = ['2025-11', '2025-12', '2026-01', '2026-02'];
  const lines = months.map((m) => [`${m}-03  NETFLIX.COM  -15.99`, `${m}-05  SPOTIFY AB  -10.99`]);
  if (parts === 1) return [['CARD STATEMENT', ...lines.flat()]];
  return [
    ['CARD STATEMENT', ...(lines[0] ?? [])],
    [...(lines[1] ?? []), ...(lines[2] ?? [])],
    [...(lines[3] ?? []), 'TOTAL  -107.92'],
  ];
}

async function page(lines: string[]): Promise<ScannedPage> {
  const jpeg = await statementPicture(lines, { width: 800, fontSize: 18, jpeg: 80 });
  const { width = 0, height = 0 } = await sharp(jpeg).metadata();
  return { jpeg, width, height };
}

/** Each case reads pictures by OCR, a few seconds each (more when the machine is busy). */
const OCR_CASE = 120_000;

describe('statement progress in Telegram', () => {
  let w: World;
  afterEach(async () => w.close());
  afterAll(async () => stopOcr());

  /** Sends a file and returns every text its progress message had, in order, and the result. */
  async function texts(
    user: TgUser,
    send: () => Promise<unknown>,
  ): Promise<{ shown: string[]; result: TgMessage }> {
    const before = w.tg.botMessages(user.id).length;
    await send();
    const [progress] = (await w.tg.waitForMessages(user.id, before + 1)).slice(before);
    const id = progress!.message_id;
    await w.tg.waitFor(
      (api) => !api.message(user.id, id)?.text?.startsWith('⏳'),
      // OCR takes seconds a page, many more on a loaded machine: wait long, never on a clock.
      80_000,
      'the progress message edited into its result',
    );
    // The message as sent (the fake's messages are kept as edited since).
    const sent = w.tg
      .callsOf('sendMessage')
      .filter((c) => Number(c.params.chat_id) === user.id)
      .at(-1);
    const edits = w.tg
      .callsOf('editMessageText')
      .filter((c) => Number(c.params.message_id) === id)
      .map((c) => String(c.params.text));
    return { shown: [String(sent?.params.text), ...edits], result: w.tg.message(user.id, id)! };
  }

  it(
    'edits one message page by page for a 3-page scanned PDF, then shows the review in it',
    async () => {
      w = await createWorld();
      const ana = w.tg.user(1001, 'Ana', 'en');
      await seedHousehold(w.cores[0]!, ana);
      await w.start({ streaming: { editIntervalMs: 0 } });
      const pdf = scannedPdfPages(await Promise.all(statementLines(3).map(page)));

      const { shown, result } = await texts(ana, () =>
        w.tg.sendDocument(ana, pdf, { name: 'scan.pdf', mimeType: 'application/pdf' }),
      );
      const card = shown.pop();
      expect(shown).toEqual([
        '⏳ Reading scan.pdf…',
        '⏳ Reading page 1 of 3…',
        '⏳ Reading page 2 of 3…',
        '⏳ Reading page 3 of 3…',
        '⏳ Looking for subscriptions…',
      ]);
      expect(card).toContain('📄 scan.pdf');
      expect(result.text).toContain('Subscriptions found: 2.');
      expect(w.logged).toEqual([]);
    },
    OCR_CASE,
  );

  it(
    'shows how much of a photo is read, in steps, in Spanish, then the review',
    async () => {
      w = await createWorld();
      const marta = w.tg.user(1003, 'Marta', 'es');
      await seedHousehold(w.cores[0]!, marta, { language: 'es' });
      await w.start({ streaming: { editIntervalMs: 0 } });
      const [lines = []] = statementLines(1);
      const photo = await statementPicture(lines, { blur: 0.8, rotate: 1, jpeg: 60 });

      const { shown, result } = await texts(marta, () => w.tg.sendPhoto(marta, photo));
      const card = shown.pop();
      expect(shown[0]).toMatch(/^⏳ Leyendo .+…$/);
      expect(shown.at(-1)).toBe('⏳ Buscando suscripciones…');
      const percents = shown.slice(1, -1).map((text) => {
        const match = /^⏳ Leyendo la imagen… (\d+) %$/.exec(text);
        expect(match, text).not.toBeNull();
        return Number(match?.[1]);
      });
      // Several steps, each a new figure (an edit only when the text changes), rising to 100.
      expect(percents.length).toBeGreaterThanOrEqual(3);
      expect(percents).toEqual([...new Set(percents)].sort((a, b) => a - b));
      expect(percents.at(-1)).toBe(100);
      expect(percents.every((p) => p % 10 === 0)).toBe(true);
      expect(card).not.toMatch(/^⏳/);
      expect(result.text).toContain('Suscripciones encontradas: 2.');
      expect(w.logged).toEqual([]);
    },
    OCR_CASE,
  );

  it(
    'edits no more often than the channel allows: a quick read shows only its result',
    async () => {
      w = await createWorld();
      const ana = w.tg.user(1001, 'Ana', 'en');
      await seedHousehold(w.cores[0]!, ana);
      await w.start({ streaming: { editIntervalMs: 60_000 } });
      const [lines = []] = statementLines(1);
      const photo = await statementPicture(lines);

      const { shown } = await texts(ana, () => w.tg.sendPhoto(ana, photo));
      // The photo's steps came within the minute after the message was sent: none was shown, and
      // the one waiting its turn was dropped when the review replaced the message.
      expect(shown).toHaveLength(2);
      expect(shown[0]).toMatch(/^⏳ Reading .+…$/);
      expect(shown[1]).toContain('Subscriptions found: 2.');
    },
    OCR_CASE,
  );
});
