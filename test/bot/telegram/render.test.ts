import { describe, expect, it } from 'vitest';

import { MAX_MESSAGE_LENGTH, renderTelegram } from '../../../bot/telegram/render.ts';
import { parseHtml } from '../../fakes/telegramBotApi.ts';

describe('renderTelegram', () => {
  it('writes the card title in bold and escapes everything written by people', () => {
    const [message] = renderTelegram(
      { card: { title: 'Added <Tom & Jerry>', lines: ['5 < 6'] }, text: 'a & b' },
      true,
    );
    expect(message!.text).toBe('<b>Added &lt;Tom &amp; Jerry&gt;</b>\n5 &lt; 6\n\na &amp; b');
    expect(parseHtml(message!.text)).toBe('Added <Tom & Jerry>\n5 < 6\n\na & b');
  });

  it('splits a long reply on line boundaries under 4096 visible characters, buttons on the last message', () => {
    const lines = Array.from(
      { length: 120 },
      (_, i) => `${String(i).padStart(3, '0')} ${'x&'.repeat(40)}`,
    );
    const messages = renderTelegram(
      {
        card: { title: 'Long', lines },
        buttons: [[{ kind: 'action', label: 'Next', payload: 'btn_1.0' }]],
      },
      true,
    );
    expect(messages.length).toBeGreaterThan(1);
    for (const m of messages)
      expect([...parseHtml(m.text)].length).toBeLessThanOrEqual(MAX_MESSAGE_LENGTH);
    expect(messages.map((m) => parseHtml(m.text)).join('\n')).toBe(['Long', ...lines].join('\n'));
    expect(messages.slice(0, -1).every((m) => m.reply_markup === undefined)).toBe(true);
    expect(messages.at(-1)!.reply_markup).toEqual({
      inline_keyboard: [[{ text: 'Next', callback_data: 'btn_1.0' }]],
    });
  });

  it('cuts a single line longer than a message', () => {
    const messages = renderTelegram({ text: 'é'.repeat(MAX_MESSAGE_LENGTH + 10) }, true);
    expect(messages.map((m) => [...m.text].length)).toEqual([MAX_MESSAGE_LENGTH, 10]);
  });

  it('opens the Mini App with a web_app button in private chats and a link in groups', () => {
    const reply = {
      text: 'hi',
      buttons: [[{ kind: 'webapp' as const, label: 'Open', url: 'https://app.test/' }]],
    };
    expect(renderTelegram(reply, true)[0]!.reply_markup!.inline_keyboard[0]).toEqual([
      { text: 'Open', web_app: { url: 'https://app.test/' } },
    ]);
    expect(renderTelegram(reply, false)[0]!.reply_markup!.inline_keyboard[0]).toEqual([
      { text: 'Open', url: 'https://app.test/' },
    ]);
  });
});
