import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  buttonsOf,
  FakeSlack,
  readable,
  type SignedRequest,
  signature,
  slackRequests,
} from '../../fakes/slackApi.ts';
import { type FakeLlm, startLlmServer } from '../../fakes/llmServer.ts';
import { scripted } from '../../fakes/llmScript.ts';
import {
  type ExhaleServer,
  freePort,
  runExhale,
  startExhaleProcess,
} from '../../helpers/exhaleProcess.ts';

/** Longer than twice the 256 characters a stream gathers before each call: started, appended, stopped. */
const ANSWER =
  'Netflix now costs 17.99 EUR a month instead of 15.99 EUR. That is 24 EUR more a year, and ' +
  'your next charge is on the 5th. I prepared the change below: nothing is saved until you ' +
  'press Confirm, and you can undo it afterwards if you change your mind. If you would rather ' +
  'cancel, the card of the subscription has a button for that, with the cancel page as a link. ' +
  'Either way, Exhale keeps the history of what you paid, so your yearly totals stay right. ' +
  'Looking at the rest of your household, Netflix is the only subscription whose price changed ' +
  'this month; the others cost what they did, and no trial turns paid in the next thirty days. ' +
  'If you share the account with someone, you can split the cost from the card as well.';

/** Signed requests to a real `exhale` process, its Web API calls going to the fake Slack. */
describe('Slack in a real exhale process', () => {
  let slack: FakeSlack;
  let dir: string;
  let server: ExhaleServer | null = null;
  beforeEach(async () => {
    slack = await new FakeSlack().start();
    dir = mkdtempSync(path.join(tmpdir(), 'exhale-slack-'));
  });
  afterEach(async () => {
    if (server) {
      server.kill('SIGTERM');
      await server.exited;
      server = null;
    }
    await slack.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const env = (): Record<string, string> => ({
    EXHALE_DATA_DIR: dir,
    EXHALE_SLACK_BOT_TOKEN: 'xoxb-test',
    EXHALE_SLACK_SIGNING_SECRET: 'test-signing-secret',
    EXHALE_SLACK_API_URL: slack.url,
  });
  const post = (request: SignedRequest): Promise<Response> =>
    fetch(`${server!.url}/slack/events`, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
    });

  it('onboards in Spanish, adds by slash command, undoes it, and refuses a forged request', async () => {
    server = await startExhaleProcess(env());
    expect(server.output()).toContain('Slack: on (events at /slack/events)');
    const ana = slack.user('U1001', 'Ana', 'es-ES');

    const forged = slackRequests.command(ana, 'start');
    const refused = await post({
      ...forged,
      headers: { ...forged.headers, ...signature(forged.body, undefined, 'wrong') },
    });
    expect(refused.status).toBe(401);
    expect(slack.callsOf('chat.postMessage')).toEqual([]);

    expect((await post(slackRequests.command(ana, 'start'))).status).toBe(200);
    const welcome = await slack.until(() => slack.messagesIn('D1001')[0]);
    expect(readable(welcome)).toContain('¿En qué moneda pagas?');
    const tap = async (label: string): Promise<void> => {
      const current = slack.messages.get(welcome.ts)!;
      const b = buttonsOf(current).find((x) => x.label === label)!;
      expect((await post(slackRequests.press(ana, current, b.actionId, b.value))).status).toBe(200);
    };
    await tap('EUR');
    await slack.until(
      () => readable(slack.messages.get(welcome.ts)).includes('zona horaria') || undefined,
    );
    await tap('Europe/Madrid');
    await slack.until(
      () => readable(slack.messages.get(welcome.ts)).includes('Tu hogar está listo') || undefined,
    );

    await post(slackRequests.command(ana, 'add Netflix 15,99 EUR mensual 5'));
    const card = await slack.until(() =>
      slack.messagesIn('D1001').find((m) => readable(m).includes('Suscripción añadida')),
    );
    // The process runs on the real clock: the next 5th of a month.
    expect(card.blocks?.[0]?.text?.text).toMatch(
      /^\*✅ Suscripción añadida: Netflix\*\n15,99 EUR · cada mes\nPróximo cobro: \S+, 5 \S+ \d{4}$/,
    );
    const undo = buttonsOf(card).find((b) => b.label.includes('Deshacer'))!;
    await post(slackRequests.press(ana, card, undo.actionId, undo.value));
    await slack.until(() =>
      slack.messagesIn('D1001').find((m) => readable(m).includes('Deshecho')),
    );

    server.kill('SIGTERM');
    await server.exited;
    server = null;
    const list = await runExhale({ EXHALE_DATA_DIR: dir }, ['op', 'list_subscriptions', '{}']);
    expect(list.stdout).not.toContain('Netflix');
    const activity = await runExhale({ EXHALE_DATA_DIR: dir }, ['op', 'list_activity', '{}']);
    expect(activity.stdout).toContain('create_subscription');
  });

  it('streams the assistant into the thread from a real process with a model over loopback, then the card: Confirm, Undo', async () => {
    let netflix = '';
    const llm: FakeLlm = await startLlmServer(
      scripted('openai', [
        () => ({
          text: 'Let me check the price. ',
          calls: [{ name: 'update_subscription', args: { id: netflix, amount: '17.99' } }],
        }),
        {
          text: ANSWER,
        },
      ]),
    );
    try {
      server = await startExhaleProcess({
        ...env(),
        EXHALE_ASSISTANT_PROVIDER: 'openai',
        EXHALE_ASSISTANT_BASE_URL: llm.url,
        EXHALE_ASSISTANT_MODEL: 'gpt-4o-mini',
        EXHALE_ASSISTANT_API_KEY: 'sk-test',
      });
      const ana = slack.user('U1001', 'Ana', 'en-US');
      await post(slackRequests.command(ana, 'start'));
      const welcome = await slack.until(() => slack.messagesIn('D1001')[0]);
      for (const [label, next] of [
        ['EUR', 'time zone'],
        ['Europe/Madrid', 'household is ready'],
      ] as const) {
        const current = slack.messages.get(welcome.ts)!;
        const b = buttonsOf(current).find((x) => x.label === label)!;
        await post(slackRequests.press(ana, current, b.actionId, b.value));
        await slack.until(
          () => readable(slack.messages.get(welcome.ts)).includes(next) || undefined,
        );
      }
      await post(slackRequests.command(ana, 'add Netflix 15.99 EUR monthly 5'));
      await slack.until(() =>
        slack.messagesIn('D1001').find((m) => readable(m).includes('Added Netflix')),
      );
      const listed = await runExhale({ EXHALE_DATA_DIR: dir }, ['op', 'list_subscriptions', '{}']);
      netflix = /"id":\s*"(sub_[a-z0-9]+)"/.exec(listed.stdout)?.[1] ?? '';
      expect(netflix).not.toBe('');

      const thread = '1700000000.000001';
      await post(
        slackRequests.event({
          type: 'assistant_thread_started',
          assistant_thread: {
            user_id: ana.id,
            channel_id: 'D1001',
            thread_ts: thread,
            context: {},
          },
          event_ts: '1700000000.000002',
        }),
      );
      await slack.until(() => slack.callsOf('assistant.threads.setSuggestedPrompts')[0]);
      await post(slackRequests.dm(ana, 'Netflix went up to 17.99', { thread_ts: thread }));
      const card = await slack.until(() =>
        slack.messagesIn('D1001').find((m) => readable(m).includes('Change Netflix?')),
      );
      // Streamed into the thread, in order: started, appended, stopped; then Exhale's card.
      const streams = slack.calls
        .map((c) => c.method)
        .filter((m) => m.startsWith('chat.') && m.endsWith('Stream'));
      expect(streams[0]).toBe('chat.startStream');
      expect(streams).toContain('chat.appendStream');
      expect(streams.at(-1)).toBe('chat.stopStream');
      expect(streams.indexOf('chat.stopStream')).toBe(streams.length - 1);
      const streamed = slack.messagesIn('D1001').find((m) => m.streaming === false)!;
      expect(streamed.thread_ts).toBe(thread);
      expect(streamed.text).toBe(`Let me check the price. \n\n${ANSWER}`);
      expect(card.thread_ts).toBe(thread);
      // The card follows the finished stream.
      expect(Number(card.ts)).toBeGreaterThan(Number(streamed.ts));
      expect(llm.requests.length).toBe(2);
      expect(llm.requests[0]?.body.stream).toBe(true);

      const confirm = buttonsOf(card).find((b) => b.label.includes('Confirm'))!;
      await post(slackRequests.press(ana, card, confirm.actionId, confirm.value));
      const done = await slack.until(() =>
        readable(slack.messages.get(card.ts)).includes('Done')
          ? slack.messages.get(card.ts)
          : undefined,
      );
      const amountNow = async (): Promise<string> =>
        (
          await runExhale({ EXHALE_DATA_DIR: dir }, [
            'op',
            'get_subscription',
            JSON.stringify({ id: netflix }),
          ])
        ).stdout;
      expect(await amountNow()).toContain('17.99');
      const undo = buttonsOf(done).find((b) => b.label.includes('Undo'))!;
      await post(slackRequests.press(ana, done, undo.actionId, undo.value));
      await slack.until(
        () => readable(slack.messages.get(card.ts)).includes('Undone') || undefined,
      );
      expect(await amountNow()).toContain('15.99');
    } finally {
      await llm.close();
    }
  }, 90_000);

  it('stops start-up with a sentence naming EXHALE_SLACK_BOT_TOKEN when Slack refuses the token', async () => {
    slack.invalidAuth = true;
    // A port of its own: the refusal must be Slack's, not a busy 8080's.
    const result = await runExhale({ ...env(), EXHALE_PORT: String(await freePort()) }, []);
    expect(result.code).not.toBe(0);
    expect(result.stderr + result.stdout).toContain(
      'Slack refused EXHALE_SLACK_BOT_TOKEN (invalid_auth)',
    );
  });
});
