import { WebClient } from '@slack/web-api';

import { ChatEngine, type ChatAssistant, firstTime, type Reply } from '../../core/chat/index.ts';
import { accountsInHousehold, type Core } from '../../core/index.ts';
import type { RouteGroup } from '../http/app.ts';
import { createSlackApp, slackClientOptions } from './app.ts';
import { EdgeReceiver } from './receiver.ts';

export { EVENTS_PATH } from './receiver.ts';

export interface SlackDeps {
  core: Core;
  /** `EXHALE_SLACK_BOT_TOKEN` (xoxb-). */
  token: string;
  /** `EXHALE_SLACK_SIGNING_SECRET`: HTTP mode, events at `/slack/events` on the edge. */
  signingSecret?: string | undefined;
  /** `EXHALE_SLACK_APP_TOKEN` (xapp-): Socket Mode, for a machine with no public URL. */
  appToken?: string | undefined;
  /** `EXHALE_SLACK_API_URL`: another Web API root (a test fake), such as `http://127.0.0.1:9/api/`. */
  apiUrl?: string | undefined;
  /** The web app, for App Home's button. */
  webUrl?: string | undefined;
  /** Where Exhale's own web is reached (`webBaseUrl`): `/exhale web`'s sign-in links point there. */
  siteUrl?: string | undefined;
  assistant?: ChatAssistant | undefined;
  /** Characters a streamed answer gathers before each `chat.appendStream` (default 256). */
  streamBuffer?: number | undefined;
  log?: ((message: string, error?: unknown) => void) | undefined;
}

export interface SlackHandle {
  /** The routes of `/slack/events` to mount on the edge; null in Socket Mode. */
  routes: RouteGroup | null;
  /** Sends a reply to a member's DM with the app, by their account (`<team>:<user>`). */
  sendTo(account: string, reply: Reply): Promise<void>;
  /** Redraws a member's App Home. */
  publishHome(account: string): Promise<void>;
  engine: ChatEngine;
  /** Resolves once the events already acknowledged and the App Home redraws they caused are done. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** Slack refused the token (`invalid_auth` and the like): start-up stops with the variable named. */
export class SlackRefused extends Error {
  override readonly name = 'SlackRefused';
}

const REFUSALS = new Set([
  'invalid_auth',
  'not_authed',
  'account_inactive',
  'token_revoked',
  'token_expired',
]);

function refusal(error: unknown): string | null {
  if (typeof error !== 'object' || error === null || !('data' in error)) return null;
  const data = error.data;
  if (typeof data !== 'object' || data === null || !('error' in data)) return null;
  return typeof data.error === 'string' && REFUSALS.has(data.error) ? data.error : null;
}

const splitAccount = (account: string): { team: string; user: string } => {
  const at = account.indexOf(':');
  return at < 0
    ? { team: '', user: account }
    : { team: account.slice(0, at), user: account.slice(at + 1) };
};

/**
 * Starts Slack: checks the token (`auth.test`), then serves events over HTTP (the returned routes,
 * mounted by the caller at `/slack/events`) or Socket Mode. App Home is redrawn for a household's
 * Slack members whenever the household changes. Reminders and agent notices reach members through
 * `sendTo`, called by the channel registry (`bot/slack/adapter.ts`).
 */
export async function startSlack(deps: SlackDeps): Promise<SlackHandle> {
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error));
  const engine = new ChatEngine({
    core: deps.core,
    miniAppUrl: deps.webUrl,
    webUrl: deps.siteUrl,
    assistant: deps.assistant,
    log,
  });
  if (!deps.appToken && !deps.signingSecret)
    throw new SlackRefused(
      'Slack needs EXHALE_SLACK_SIGNING_SECRET (HTTP) or EXHALE_SLACK_APP_TOKEN (Socket Mode).',
    );
  const receiver = deps.appToken
    ? undefined
    : new EdgeReceiver({
        signingSecret: deps.signingSecret ?? '',
        log,
      });
  let bot: { id: string; userId: string };
  try {
    const me = await new WebClient(deps.token, slackClientOptions(deps.apiUrl)).auth.test();
    bot = { id: me.bot_id ?? '', userId: me.user_id ?? '' };
  } catch (error) {
    const refused = refusal(error);
    if (refused)
      throw new SlackRefused(
        `Slack refused EXHALE_SLACK_BOT_TOKEN (${refused}). Copy the Bot User OAuth Token (xoxb-…) from your app's "OAuth & Permissions" page.`,
      );
    throw error;
  }
  const slack = createSlackApp({
    engine,
    bot,
    token: deps.token,
    receiver,
    appToken: deps.appToken,
    apiUrl: deps.apiUrl,
    webUrl: deps.webUrl ?? null,
    streamBuffer: deps.streamBuffer,
    firstTime: (eventId) => firstTime(deps.core.db, `slack:${eventId}`, deps.core.clock()),
    log,
  });
  try {
    await slack.app.start();
  } catch (error) {
    if (refusal(error))
      throw new SlackRefused(
        `Slack refused EXHALE_SLACK_APP_TOKEN (${refusal(error)}). Create an app-level token (xapp-…) with connections:write under "Basic Information".`,
      );
    throw error;
  }

  const publishHome = async (account: string): Promise<void> => {
    const { team, user } = splitAccount(account);
    await slack.publishHomeOf(team, user);
  };
  // Redraws coalesce per household: a burst of changes (an import) publishes once after it.
  const pending = new Set<string>();
  const working = new Set<Promise<void>>();
  const redraw = (householdId: string): void => {
    if (pending.has(householdId)) return;
    pending.add(householdId);
    const run = Promise.resolve()
      .then(async () => {
        pending.delete(householdId);
        for (const account of await accountsInHousehold(deps.core.db.knex, householdId, 'slack'))
          await publishHome(account.externalId);
      })
      .catch((error: unknown) => log('slack: redrawing App Home failed', error))
      .finally(() => working.delete(run));
    working.add(run);
  };
  const unsubscribe = deps.core.bus.subscribe((event) => redraw(event.householdId));

  return {
    routes: receiver ? receiver.routes() : null,
    engine,
    publishHome,
    async sendTo(account, reply) {
      const { team, user } = splitAccount(account);
      // Posting to a user id opens (or reuses) the app's DM with them.
      await slack.channelFor({ channel: user, user, team }).send(reply);
    },
    async idle() {
      await receiver?.stop();
      await slack.idle();
      while (working.size > 0) await Promise.all([...working]);
    },
    async stop() {
      // Events already acknowledged finish first (their changes may redraw App Home), then redraws.
      await slack.app.stop();
      await slack.idle();
      unsubscribe();
      while (working.size > 0) await Promise.all([...working]);
    },
  };
}
