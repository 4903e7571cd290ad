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
import { type ExhaleServer, runExhale, startExhaleProcess } from '../../helpers/exhaleProcess.ts';

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

  it('stops start-up with a sentence naming EXHALE_SLACK_BOT_TOKEN when Slack refuses the token', async () => {
    slack.invalidAuth = true;
    const result = await runExhale(env(), []);
    expect(result.code).not.toBe(0);
    expect(result.stderr + result.stdout).toContain(
      'Slack refused EXHALE_SLACK_BOT_TOKEN (invalid_auth)',
    );
  });
});
