import { createEdge, type Edge } from '../../../bot/http/app.ts';
import { EVENTS_PATH, type SlackHandle, startSlack } from '../../../bot/slack/index.ts';
import type { ChatAssistant } from '../../../core/chat/index.ts';
import { memberActor, newcomerActor, type Actor } from '../../../core/kernel/actor.ts';
import { Core } from '../../../core/kernel/core.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import type { Database } from '../../../core/store/connection.ts';
import {
  buttonsOf,
  FakeSlack,
  type FakeMessage,
  readable,
  type SignedRequest,
  slackRequests,
  type SlackUser,
} from '../../fakes/slackApi.ts';
import { openTestDatabase, TEST_NOW } from '../../helpers/testCore.ts';

/**
 * Slack in process: a Core on a fresh database, the fake Slack, and Exhale's Slack app on an
 * in-process HTTP edge (requests go to `edge.app.fetch`, no port).
 */
export interface SlackWorld {
  slack: FakeSlack;
  core: Core;
  db: Database;
  clock: { now: Date };
  edge: Edge;
  handle: SlackHandle;
  logged: Array<{ message: string; error: unknown }>;
  /** Posts a signed request to `/slack/events` and returns the response (the ack). */
  post(request: SignedRequest): Promise<Response>;
  /** `/exhale <text>` by `user` (in their DM unless `channel`); resolves with the reply posted. */
  command(user: SlackUser, text: string, channel?: string): Promise<FakeMessage>;
  /** Presses the button labelled `label` (a substring) on `message`. */
  press(user: SlackUser, message: FakeMessage, label: string): Promise<Response>;
  close(): Promise<void>;
}

export async function createSlackWorld(
  options: {
    assistant?: (core: Core) => ChatAssistant;
    db?: Database;
    webUrl?: string;
    siteUrl?: string;
  } = {},
): Promise<SlackWorld> {
  const slack = await new FakeSlack().start();
  const db = options.db ?? (await openTestDatabase());
  const clock = { now: new Date(TEST_NOW) };
  const core = new Core({ db, catalog, clock: () => new Date(clock.now) });
  const logged: SlackWorld['logged'] = [];
  const edge = createEdge({ log: () => undefined });
  const handle = await startSlack({
    core,
    token: 'xoxb-test',
    signingSecret: 'test-signing-secret',
    apiUrl: slack.url,
    webUrl: options.webUrl,
    siteUrl: options.siteUrl ?? 'https://exhale.example.com',
    assistant: options.assistant?.(core),
    streamBuffer: 16,
    log: (message, error) => logged.push({ message, error }),
  });
  if (handle.routes) edge.mount(EVENTS_PATH, handle.routes);
  const post = (request: SignedRequest): Promise<Response> =>
    Promise.resolve(
      edge.app.fetch(
        new Request(`http://exhale.test${EVENTS_PATH}`, {
          method: 'POST',
          headers: request.headers,
          body: request.body,
        }),
      ),
    );
  return {
    slack,
    core,
    db,
    clock,
    edge,
    handle,
    logged,
    post,
    async command(user, text, channel) {
      const where = channel ?? `D${user.id.slice(1)}`;
      const before = slack.messagesIn(where).length;
      const ack = await post(
        slackRequests.command(user, text, where, slack.responseUrl(where, user.id)),
      );
      if (ack.status !== 200) throw new Error(`the command was answered ${ack.status}`);
      return newMessage(slack, where, before);
    },
    press(user, message, label) {
      const current = slack.messages.get(message.ts) ?? message;
      const button = buttonsOf(current).find((b) => b.label.includes(label));
      if (!button) throw new Error(`no button "${label}" on: ${readable(current)}`);
      return post(slack.pressOn(user, current, button.actionId, button.value));
    },
    async close() {
      await handle.stop();
      await slack.stop();
      if (!options.db) await db.close();
    },
  };
}

/** The newest message in a channel whose readable text matches, once it is there. */
export function newMessage(
  slack: FakeSlack,
  channel: string,
  after: number,
  check: (m: FakeMessage) => boolean = () => true,
): Promise<FakeMessage> {
  return slack.until(() => {
    const all = slack.messagesIn(channel).slice(after);
    return all.reverse().find(check);
  }, `a message in ${channel}`);
}

/** A household created from Slack by `user` (as onboarding would), and its owner acting. */
export async function seedSlackHousehold(
  core: Core,
  user: SlackUser,
  language: 'en' | 'es' = 'en',
): Promise<{ householdId: string; memberId: string; actor: Actor }> {
  const created = await core.invoke(
    'create_household',
    newcomerActor('slack', language, { slack: `${user.team}:${user.id}` }),
    {
      name: `${user.name}'s home`,
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      language,
      owner_name: user.name,
    },
  );
  const { household, member } = created.output as {
    household: { id: string };
    member: { id: string };
  };
  return {
    householdId: household.id,
    memberId: member.id,
    actor: memberActor(
      { id: member.id, household_id: household.id, role: 'owner', language },
      'slack',
    ),
  };
}
