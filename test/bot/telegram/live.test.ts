import type { Api } from 'grammy';
import { describe, expect, it } from 'vitest';

import { STREAMING, type StreamingOptions, TelegramLive } from '../../../bot/telegram/live.ts';

/** A live answer against a recording stand-in for grammY's Api (only the three calls it makes). */
function setUp(privateChat: boolean, streaming: Partial<StreamingOptions> = {}) {
  const calls: Array<{ method: string; text: string; at: number }> = [];
  const finished: string[] = [];
  let nextId = 1;
  const api = {
    sendMessageDraft: async (_chat: number, _draft: number, text: string) => {
      calls.push({ method: 'draft', text, at: Date.now() });
      return true;
    },
    sendMessage: async (chat: number, text: string) => {
      calls.push({ method: 'send', text, at: Date.now() });
      return { chat: { id: chat }, message_id: nextId++ };
    },
    editMessageText: async (_chat: number, _id: number, text: string) => {
      calls.push({ method: 'edit', text, at: Date.now() });
      return true;
    },
  };
  const live = new TelegramLive({
    api: api as unknown as Api,
    chatId: privateChat ? 7 : -7,
    privateChat,
    streaming: { ...STREAMING, ...streaming },
    send: async (text) => {
      finished.push(`send:${text}`);
      return { chatId: '7', messageId: '99' };
    },
    edit: async (ref, text) => {
      finished.push(`edit:${ref.messageId}:${text}`);
    },
    isNotModified: () => false,
    log: () => undefined,
  });
  return { live, calls, finished };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('a live answer in Telegram', () => {
  it('edits one group message no more often than the pace allows, the last edit included', async () => {
    const { live, calls, finished } = setUp(false, { groupEditIntervalMs: 40 });
    const started = Date.now();
    for (let i = 0; i < 20; i += 1) {
      live.write(`w${i} `);
      await sleep(5);
    }
    await live.finish('the whole answer');
    const elapsed = Date.now() - started;
    expect(calls[0]!.method).toBe('send');
    expect(calls.slice(1).every((c) => c.method === 'edit')).toBe(true);
    // Twenty pieces at one update per 40 ms: a handful, not twenty.
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls.length).toBeLessThanOrEqual(Math.floor(elapsed / 40) + 1);
    for (let i = 1; i < calls.length; i += 1)
      expect(calls[i]!.at - calls[i - 1]!.at).toBeGreaterThanOrEqual(38);
    expect(finished).toEqual(['edit:1:the whole answer']);
  });

  it('sends a quiet draft again before it fades, and stops when the answer is finished', async () => {
    const { live, calls, finished } = setUp(true, { draftIntervalMs: 0, draftKeepAliveMs: 20 });
    live.write('Checking your charges…');
    await sleep(75);
    const drafts = calls.filter((c) => c.method === 'draft');
    expect(drafts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(drafts.map((d) => d.text))).toEqual(new Set(['Checking your charges…']));
    await live.finish('Checking your charges… done.');
    const after = calls.length;
    await sleep(50);
    expect(calls.length).toBe(after);
    expect(finished).toEqual(['send:Checking your charges… done.']);
  });

  it('shows at most 4096 characters of a long answer while it is written', async () => {
    const { live, calls } = setUp(true, { draftIntervalMs: 0 });
    live.write('x'.repeat(5000));
    await sleep(10);
    await live.abort();
    expect([...calls[0]!.text]).toHaveLength(4096);
    expect(calls[0]!.text.endsWith('…')).toBe(true);
  });

  it('skips updates that would not change what is shown, and sends nothing for an empty answer', async () => {
    const { live, calls, finished } = setUp(true, { draftIntervalMs: 0 });
    live.write('   ');
    await sleep(10);
    expect(calls).toEqual([]);
    live.write('Hi');
    await sleep(10);
    live.write('  ');
    await sleep(10);
    expect(calls.map((c) => c.text)).toEqual(['Hi']);
    await live.abort();
    const empty = setUp(true);
    expect(await empty.live.finish('')).toBeNull();
    expect(empty.calls).toEqual([]);
    expect(finished).toEqual([]);
  });
});
