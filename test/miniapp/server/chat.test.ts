import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ChatEngine } from '../../../core/chat/index.ts';
import { createEdge } from '../../../bot/http/app.ts';
import { createMiniApp } from '../../../miniapp/server/index.ts';
import { createTestHousehold, TEST_NOW, type TestHousehold } from '../../helpers/testCore.ts';
import { BOT_TOKEN, fakeAppDir, linkTelegram, post, signInitData, tma } from './harness.ts';

const TG = 5001;

/** The events of one SSE answer, parsed. */
async function events(
  res: Response,
): Promise<Array<{ event: string; data: Record<string, unknown> }>> {
  const text = await res.text();
  return [...text.matchAll(/event: (\w+)\ndata: (.*)\n/g)].map((m) => ({
    event: m[1] ?? '',
    data: JSON.parse(m[2] ?? '{}') as Record<string, unknown>,
  }));
}

describe('POST /api/chat: the Ask screen is the chat engine on the web channel', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
    await linkTelegram(h.core, h.ownerId, TG);
  });
  afterEach(async () => h.close());

  it('answers a message with the same card and Undo button as chat, and a press undoes it', async () => {
    const edge = createEdge({ log: () => {} });
    const app = createMiniApp({
      core: h.core,
      botToken: BOT_TOKEN,
      appDir: fakeAppDir(),
      chat: new ChatEngine({ core: h.core }),
      log: () => {},
    });
    edge.mount('/api', app.api);
    const headers = tma(signInitData({ user: { id: TG }, authDate: TEST_NOW }));
    const res = await edge.app.request(
      'http://localhost/api/chat',
      post({ text: '/add Netflix 15.99 EUR monthly 5' }, headers),
    );
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const answer = await events(res);
    expect(answer.at(-1)?.event).toBe('done');
    const message = answer.find((e) => e.event === 'message')?.data;
    expect(JSON.stringify(message)).toContain('Netflix');
    const buttons = (message?.buttons ?? []) as Array<Array<{ label: string; payload?: string }>>;
    const undo = buttons.flat().find((b) => b.label.includes('Undo'));
    expect(undo?.payload).toBeDefined();
    expect(await h.db.knex('subscriptions').select('name')).toEqual([{ name: 'Netflix' }]);

    const pressed = await edge.app.request(
      'http://localhost/api/chat',
      post({ press: undo?.payload, ref: message?.ref }, headers),
    );
    const after = await events(pressed);
    expect(after.at(-1)?.event).toBe('done');
    expect(await h.db.knex('subscriptions').select('name')).toEqual([]);

    const bad = await edge.app.request('http://localhost/api/chat', post({ nothing: 1 }, headers));
    expect(bad.status).toBe(400);
  });
});
