import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createEdge } from '../../../bot/http/app.ts';
import { ChatEngine } from '../../../core/chat/index.ts';
import { createMiniApp } from '../../../miniapp/server/index.ts';
import { scriptedAssistant } from '../../bot/pacedModel.ts';
import { createTestHousehold, TEST_NOW, type TestHousehold } from '../../helpers/testCore.ts';
import { BOT_TOKEN, fakeAppDir, linkTelegram, post, signInitData, tma } from './harness.ts';

const TG = 5002;

type Sent = { event: string; data: Record<string, unknown> };
type Button = { kind: string; label: string; url?: string };

async function events(res: Response): Promise<Sent[]> {
  const text = await res.text();
  return [...text.matchAll(/event: (\w+)\ndata: (.*)\n/g)].map((m) => ({
    event: m[1] ?? '',
    data: JSON.parse(m[2] ?? '{}') as Record<string, unknown>,
  }));
}

/**
 * The assistant's screens in the app's Ask (the chat engine on the web channel): the screen's
 * card carries "Open in app" as the app path itself, which the Ask screen opens in place.
 */
describe('POST /api/chat: an assistant screen opens its app screen in place', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
    await linkTelegram(h.core, h.ownerId, TG);
  });
  afterEach(async () => h.close());

  it('a subscription shown by the assistant carries a webapp button to /app/subscriptions/<id>', async () => {
    const netflix = (
      (
        await h.core.invoke('create_subscription', h.owner, {
          name: 'Netflix',
          amount: '15.99',
          first_charge_date: '2026-01-12',
        })
      ).output as { id: string }
    ).id;
    const { assistant } = scriptedAssistant(h.core, [
      {
        calls: [
          { name: 'show_screen', args: { kind: 'subscriptions', subscription_ids: [netflix] } },
        ],
      },
      { text: 'Here it is.' },
      {
        calls: [
          { name: 'show_screen', args: { kind: 'charges', from: '2026-03-01', to: '2026-03-31' } },
        ],
      },
      { text: 'March.' },
    ]);
    const edge = createEdge({ log: () => {} });
    const app = createMiniApp({
      core: h.core,
      botToken: BOT_TOKEN,
      appDir: fakeAppDir(),
      chat: new ChatEngine({ core: h.core, assistant }),
      log: () => {},
    });
    edge.mount('/api', app.api);
    const headers = tma(signInitData({ user: { id: TG }, authDate: TEST_NOW }));
    const opened: string[] = [];
    for (const text of ['show me Netflix', 'and March?']) {
      const answer = await events(
        await edge.app.request('http://localhost/api/chat', post({ text }, headers)),
      );
      expect(answer.at(-1)?.event).toBe('done');
      const screen = answer.find(
        (e) => e.event === 'message' && JSON.stringify(e.data).includes('Open in app'),
      );
      const buttons = ((screen?.data.buttons ?? []) as Button[][]).flat();
      expect(buttons).toEqual([
        expect.objectContaining({ kind: 'webapp', label: '📱 Open in app' }),
      ]);
      opened.push(buttons[0]?.url ?? '');
    }
    expect(opened).toEqual([`/app/subscriptions/${netflix}`, '/app/calendar?day=2026-03-01']);
  });
});
