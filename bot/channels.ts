import { ChannelConfigError } from './channelConfigError.ts';
import { type Config, webBaseUrl } from './config.ts';
import type { RouteGroup } from './http/app.ts';
import type { FetchHandler } from './http/fetchHandler.ts';
import type { AppCore } from './runtime.ts';
import { type Scheduler, startScheduler } from './scheduler.ts';
import {
  ChannelRegistry,
  type Core,
  createAssistant,
  overridesFromEnv,
  startAgentNotices,
} from '../core/index.ts';

export interface Channels {
  /** One line per channel for the start-up message. */
  status: string[];
  /** The Telegram bot's @username once it connected (getMe at start, never asked again), else null. */
  botUsername(): string | null;
  stop(): Promise<void>;
}

export { ChannelConfigError };

const RETRY_MS = 60_000;
const CONNECT_WAIT_MS = 8_000;

const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms).unref());

/** What runs over the channels of a process, whichever are on. */
export interface ChannelWork {
  scheduler: Scheduler;
  stop(): void;
}

/**
 * Starts what works through a process's channels, whichever are on (Telegram, the terminal, none
 * yet): the reminder scheduler and the notices of changes agents made. Neither depends on a
 * platform: each member is reached through the registry.
 */
export function startChannelWork(
  core: Core,
  channels: ChannelRegistry,
  log: (line: string, error?: unknown) => void,
  options: { intervalMs?: number; clock?: () => Date } = {},
): ChannelWork {
  const scheduler = startScheduler({ core, channels, log, ...options });
  const unsubscribe = startAgentNotices(core, channels, log);
  return {
    scheduler,
    stop() {
      unsubscribe();
      scheduler.stop();
    },
  };
}

/**
 * Builds the registry of the configured channels (Telegram when EXHALE_TELEGRAM_TOKEN is set),
 * starts them, and the scheduler and agent notices over them. A token Telegram rejects stops
 * start-up with a sentence naming the variable; an unreachable Telegram is retried every minute
 * while everything else keeps running.
 */
export async function startChannels(
  core: AppCore,
  config: Config,
  mount: (handler: FetchHandler) => void,
  log: (line: string, error?: unknown) => void,
  mountSlack: (routes: RouteGroup) => void = () => undefined,
): Promise<Channels> {
  const registry = new ChannelRegistry(core.db, log);
  const work = startChannelWork(core, registry, log, {
    intervalMs: config.EXHALE_SCHEDULER_SECONDS * 1000,
  });
  const token = config.EXHALE_TELEGRAM_TOKEN;
  // Off until an owner configures a provider (or EXHALE_ASSISTANT_* is set): nothing is sent anywhere before.
  const assistant =
    token || config.EXHALE_SLACK_BOT_TOKEN
      ? createAssistant({ core, config: overridesFromEnv(), log })
      : undefined;
  let slack: { status: string; stop(): void } | null = null;
  if (config.EXHALE_SLACK_BOT_TOKEN) {
    // Loaded only when Slack is configured: @slack/bolt and its web client are ~50 MB resident
    // and most of a second of start on this machine, for a server that may never talk to Slack.
    const [{ connectSlack }, { SlackRefused }] = await Promise.all([
      import('./slack/connect.ts'),
      import('./slack/index.ts'),
    ]);
    try {
      slack = await connectSlack(
        core,
        registry,
        {
          token: config.EXHALE_SLACK_BOT_TOKEN,
          signingSecret: config.EXHALE_SLACK_SIGNING_SECRET,
          appToken: config.EXHALE_SLACK_APP_TOKEN,
          apiUrl: config.EXHALE_SLACK_API_URL,
          webUrl: config.EXHALE_MINIAPP_URL ?? `${webBaseUrl(config)}/app/`,
          siteUrl: webBaseUrl(config),
        },
        { assistant, mount: mountSlack, log },
      );
    } catch (error) {
      work.stop();
      await registry.stop();
      throw error instanceof SlackRefused ? new ChannelConfigError(error.message) : error;
    }
  }
  const slackStatus = slack
    ? [slack.status]
    : [
        '  Slack: off (set EXHALE_SLACK_BOT_TOKEN and EXHALE_SLACK_SIGNING_SECRET to connect an app)',
      ];
  if (!token)
    return {
      status: ['  Telegram: off (set EXHALE_TELEGRAM_TOKEN to connect a bot)', ...slackStatus],
      botUsername: () => null,
      stop: async () => {
        slack?.stop();
        work.stop();
        await registry.stop();
      },
    };

  // grammY and the Telegram adapter are loaded only when a token is configured: ~20 MB resident
  // and a third of a second of start on this machine, for a server without Telegram.
  const [{ GrammyError }, { telegramAdapter }] = await Promise.all([
    import('grammy'),
    import('./telegram/adapter.ts'),
  ]);
  const describe = (error: unknown): string => {
    if (error instanceof GrammyError) return error.description;
    return error instanceof Error ? error.message : String(error);
  };
  let retry: NodeJS.Timeout | null = null;
  let stopped = false;
  const telegram = telegramAdapter({
    assistant,
    core,
    token,
    apiRoot: config.EXHALE_TELEGRAM_API_ROOT,
    publicUrl: config.EXHALE_PUBLIC_URL,
    miniAppUrl: config.EXHALE_MINIAPP_URL,
    webUrl: webBaseUrl(config),
    log,
    mount,
  });
  registry.register(telegram);
  const connect = (): Promise<void> => registry.start('telegram');

  const refused = (error: unknown): boolean =>
    error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404);
  const retryLater = (): void => {
    retry = setTimeout(() => {
      if (stopped) return;
      connect().then(
        () => log('Telegram connected.'),
        (error: unknown) => {
          log(`Telegram still not reachable (${describe(error)}); retrying in a minute.`);
          retryLater();
        },
      );
    }, RETRY_MS);
    retry.unref();
  };

  // Start-up waits a little for Telegram (a refused token must stop it with a sentence), but an
  // unreachable Telegram must not hold back the rest: it keeps connecting in the background.
  const attempt = connect().then(
    () => 'connected' as const,
    (error: unknown) => error,
  );
  const outcome = await Promise.race([
    attempt,
    sleep(CONNECT_WAIT_MS).then(() => 'waiting' as const),
  ]);
  let status: string;
  if (outcome === 'connected') {
    status = `  Telegram: on (${config.EXHALE_PUBLIC_URL ? 'webhook' : 'long polling'}), reminders on`;
  } else if (outcome === 'waiting') {
    status = '  Telegram: connecting… (Telegram has not answered yet; it keeps trying)';
    void attempt.then((late) => {
      if (late === 'connected') log('Telegram connected.');
      else if (refused(late))
        log(
          `Telegram refused EXHALE_TELEGRAM_TOKEN (${describe(late)}). Check the token from @BotFather.`,
        );
      else {
        log(`Telegram is not reachable (${describe(late)}); retrying every minute.`);
        retryLater();
      }
    });
  } else if (refused(outcome)) {
    slack?.stop();
    work.stop();
    await registry.stop();
    throw new ChannelConfigError(
      `Telegram refused EXHALE_TELEGRAM_TOKEN (${describe(outcome)}). Check the token from @BotFather.`,
    );
  } else {
    log(`Telegram is not reachable (${describe(outcome)}); retrying every minute.`);
    status = '  Telegram: not reachable yet, retrying every minute';
    retryLater();
  }

  return {
    status: [status, ...slackStatus],
    botUsername: () => telegram.handle?.username ?? null,
    stop: async () => {
      stopped = true;
      slack?.stop();
      if (retry) clearTimeout(retry);
      work.stop();
      await registry.stop();
    },
  };
}
