import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { App, LogLevel } from '@slack/bolt';

import { createEdge, type Edge } from '../bot/http/app.ts';
import { slackClientOptions } from '../bot/slack/app.ts';
import { EVENTS_PATH, startSlack } from '../bot/slack/index.ts';
import { EdgeReceiver } from '../bot/slack/receiver.ts';
import { newcomerActor } from '../core/kernel/actor.ts';
import { Core } from '../core/kernel/core.ts';
import { catalog } from '../core/ops/catalog.ts';
import { migrate, openDatabase } from '../core/store/connection.ts';
import { FakeSlack, type SignedRequest, slackRequests } from '../test/fakes/slackApi.ts';
import { seedSyntheticRates, syntheticSubscription } from '../test/helpers/synthetic.ts';
import type { BenchRow, BenchSuite } from './types.ts';

/**
 * Slack's throughput and ack latency, through the project's fake Slack Web API over loopback.
 * Exhale's Slack app answers `/exhale totals` on a household of 500 subscriptions (SQLite file);
 * a bare Bolt app on the same receiver and fake, answering each command with a fixed text, is
 * measured in the same run: the ratio is the cost of Exhale's work per event. The ack latency is
 * the time from a signed request to its HTTP answer (the work goes on after it).
 */

const SUBSCRIPTIONS = 500;
const BATCH = 200;
const RUNS = 3;
const LATENCY_SAMPLES = 300;
const SECRET = 'test-signing-secret';

function post(edge: Edge, request: SignedRequest): Promise<Response> {
  return Promise.resolve(
    edge.app.fetch(
      new Request(`http://exhale.bench${EVENTS_PATH}`, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
      }),
    ),
  );
}

/** Events per second: BATCH slash commands posted at once, until each got its message. */
async function throughput(edge: Edge, slack: FakeSlack, channel: string): Promise<number> {
  const user = slack.users.get('U1001')!;
  const before = slack.messagesIn(channel).length;
  const start = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: BATCH }, () => post(edge, slackRequests.command(user, 'totals', channel))),
  );
  await slack.until(
    () => slack.messagesIn(channel).length - before >= BATCH || undefined,
    `${BATCH} answers`,
  );
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return BATCH / seconds;
}

const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const percentile = (xs: number[], p: number): number =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] ?? 0;

export const suite: BenchSuite = {
  name: 'slack',
  async run(): Promise<BenchRow[]> {
    const dir = mkdtempSync(path.join(tmpdir(), 'exhale-slack-bench-'));
    const slack = await new FakeSlack().start();
    slack.user('U1001', 'Ana', 'en-US');
    const db = openDatabase({ sqliteFile: path.join(dir, 'exhale.sqlite') });
    await migrate(db);
    const core = new Core({ db, catalog });
    const created = await core.invoke(
      'create_household',
      newcomerActor('slack', 'en', { slack: 'T0001:U1001' }),
      { name: 'Bench', currency: 'EUR', time_zone: 'Europe/Madrid', owner_name: 'Ana' },
    );
    const householdId = created.output.household.id;
    const ownerId = created.output.member.id;
    const now = new Date().toISOString();
    await db.knex.batchInsert(
      'subscriptions',
      Array.from({ length: SUBSCRIPTIONS }, (_, i) =>
        syntheticSubscription(i, {
          householdId,
          memberId: () => ownerId,
          now,
          idPrefix: 'sub_bench',
          somePaused: false,
        }),
      ),
      100,
    );
    await seedSyntheticRates(db.knex);

    const exhaleEdge = createEdge({ log: () => undefined });
    const handle = await startSlack({
      core,
      token: 'xoxb-test',
      signingSecret: SECRET,
      apiUrl: slack.url,
      log: () => undefined,
    });
    if (handle.routes) exhaleEdge.mount(EVENTS_PATH, handle.routes);

    // The baseline: Bolt alone on the same kind of receiver, one fixed answer per command.
    const bareEdge = createEdge({ log: () => undefined });
    const receiver = new EdgeReceiver({ signingSecret: SECRET, log: () => undefined });
    const bare = new App({
      token: 'xoxb-test',
      botId: 'BBOT',
      botUserId: 'UBOT',
      tokenVerificationEnabled: false,
      receiver,
      logLevel: LogLevel.ERROR,
      clientOptions: slackClientOptions(slack.url),
    });
    bare.command('/exhale', async ({ ack, command, client }) => {
      await ack();
      await client.chat.postMessage({ channel: command.channel_id, text: 'Totals: 0.00 EUR' });
    });
    await bare.start();
    bareEdge.mount(EVENTS_PATH, receiver.routes());

    try {
      // Warm up both, then alternate runs so a noisy neighbour weighs on both alike.
      await throughput(exhaleEdge, slack, 'D1001');
      await throughput(bareEdge, slack, 'D9001');
      const exhaleRates: number[] = [];
      const bareRates: number[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        exhaleRates.push(await throughput(exhaleEdge, slack, 'D1001'));
        bareRates.push(await throughput(bareEdge, slack, 'D9001'));
      }
      await handle.idle();

      // Ack latency: one signed command at a time, the answer timed (the work runs after it).
      const user = slack.users.get('U1001')!;
      const latencies: number[] = [];
      for (let i = 0; i < LATENCY_SAMPLES; i += 1) {
        const request = slackRequests.command(user, 'totals');
        const start = process.hrtime.bigint();
        const response = await post(exhaleEdge, request);
        latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
        if (response.status !== 200) throw new Error(`ack answered ${response.status}`);
        if (i % 20 === 19) await handle.idle();
      }
      await handle.idle();

      const exhaleRate = median(exhaleRates);
      const bareRate = median(bareRates);
      return [
        {
          name: `/exhale totals on ${SUBSCRIPTIONS} subscriptions (sqlite)`,
          median: Math.round(exhaleRate),
          unit: 'events/s',
          note: `${(bareRate / exhaleRate).toFixed(1)}× slower than bare Bolt (${Math.round(bareRate)} events/s), ${BATCH} at once, ${RUNS} runs`,
        },
        {
          name: 'signed event → ack, median',
          median: Number(median(latencies).toFixed(2)),
          unit: 'ms',
          note: `p99 ${percentile(latencies, 0.99).toFixed(2)} ms over ${LATENCY_SAMPLES} commands`,
        },
      ];
    } finally {
      await handle.stop();
      await bare.stop();
      await slack.stop();
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
