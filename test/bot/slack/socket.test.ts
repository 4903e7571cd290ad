import type { AddressInfo } from 'node:net';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type WebSocket, WebSocketServer } from 'ws';

import { type SlackHandle, startSlack } from '../../../bot/slack/index.ts';
import { Core } from '../../../core/kernel/core.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import type { Database } from '../../../core/store/connection.ts';
import { FakeSlack, readable, slackRequests } from '../../fakes/slackApi.ts';
import { openTestDatabase, TEST_NOW } from '../../helpers/testCore.ts';
import { seedSlackHousehold } from './harness.ts';

/** Socket Mode: no public URL; Slack's envelopes arrive over a WebSocket (a local `ws` server). */
describe('Slack in Socket Mode', () => {
  let slack: FakeSlack;
  let wss: WebSocketServer;
  let db: Database;
  let handle: SlackHandle | null = null;
  const acks: Array<{ envelope_id: string }> = [];
  let socket: Promise<WebSocket>;

  beforeEach(async () => {
    slack = await new FakeSlack().start();
    wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => wss.on('listening', () => resolve()));
    slack.socketUrl = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/link?ticket=t`;
    socket = new Promise((resolve) =>
      wss.on('connection', (ws) => {
        ws.on('message', (data) => acks.push(JSON.parse(String(data)) as { envelope_id: string }));
        ws.send(
          JSON.stringify({
            type: 'hello',
            num_connections: 1,
            connection_info: { app_id: 'A0001' },
          }),
        );
        resolve(ws);
      }),
    );
    db = await openTestDatabase();
  });
  afterEach(async () => {
    await handle?.stop();
    handle = null;
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
    await slack.stop();
    await db.close();
    acks.length = 0;
  });

  it('answers a slash command and a DM arriving as envelopes, acknowledging each, and a re-delivered event once', async () => {
    const core = new Core({ db, catalog, clock: () => new Date(TEST_NOW) });
    const ana = slack.user('U1001', 'Ana', 'es-ES');
    await seedSlackHousehold(core, ana, 'es');
    handle = await startSlack({
      core,
      token: 'xoxb-test',
      appToken: 'xapp-1-test',
      apiUrl: slack.url,
      log: () => undefined,
    });
    expect(handle.routes).toBeNull();
    expect(slack.callsOf('apps.connections.open')[0]?.auth).toBe('Bearer xapp-1-test');
    const ws = await socket;

    const command = Object.fromEntries(
      new URLSearchParams(slackRequests.command(ana, 'add Netflix 15,99 EUR mensual 5').body),
    );
    ws.send(
      JSON.stringify({
        envelope_id: 'env-1',
        type: 'slash_commands',
        accepts_response_payload: true,
        payload: command,
      }),
    );
    const card = await slack.until(() =>
      slack.messagesIn('D1001').find((m) => readable(m).includes('Netflix')),
    );
    expect(readable(card)).toContain('Suscripción añadida: Netflix');
    expect(await db.knex('subscriptions').select('name')).toEqual([{ name: 'Netflix' }]);

    const dm = JSON.parse(slackRequests.dm(ana, '/exhale list').body) as Record<string, unknown>;
    const envelope = {
      envelope_id: 'env-2',
      type: 'events_api',
      accepts_response_payload: false,
      payload: dm,
    };
    ws.send(JSON.stringify(envelope));
    ws.send(
      JSON.stringify({
        ...envelope,
        envelope_id: 'env-3',
        retry_attempt: 1,
        retry_reason: 'timeout',
      }),
    );
    await slack.until(() => acks.length >= 3 || undefined, 'three acks');
    await handle.idle();
    expect(acks.map((a) => a.envelope_id).sort()).toEqual(['env-1', 'env-2', 'env-3']);
    // The DM ("/exhale list" typed as text, the list) got one answer, not two.
    expect(slack.messagesIn('D1001')).toHaveLength(2);
    expect(readable(slack.messagesIn('D1001')[1])).toContain('Netflix');
  });
});
