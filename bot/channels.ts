import { GrammyError } from 'grammy';

import { createAssistant, overridesFromEnv } from '../core/assistant/index.ts';

import type { Config } from './config.ts';
import type { FetchHandler } from './http/fetchHandler.ts';
import type { AppCore } from './runtime.ts';
import { type Scheduler, startScheduler } from './scheduler.ts';
import { startTelegram, type TelegramHandle } from './telegram/index.ts';

export interface Channels {
  /** One line per channel for the start-up message. */
  status: string[];
  stop(): Promise<void>;
}

export class ChannelConfigError extends Error {
  override readonly name = 'ChannelConfigError';
}

const RETRY_MS = 60_000;

/**
 * Starts the configured chat channels and the reminder scheduler. A token Telegram rejects stops
 * start-up with a sentence naming the variable; an unreachable Telegram is retried every minute
 * while everything else keeps running.
 */
export async function startChannels(
  core: AppCore,
  config: Config,
  mount: (handler: FetchHandler) => void,
  log: (line: string, error?: unknown) => void,
): Promise<Channels> {
  const token = config.EXHALE_TELEGRAM_TOKEN;
  if (!token)
    return {
      status: ['  Telegram: off (set EXHALE_TELEGRAM_TOKEN to connect a bot)'],
      stop: async () => undefined,
    };

  let telegram: TelegramHandle | null = null;
  let scheduler: Scheduler | null = null;
  let retry: NodeJS.Timeout | null = null;
  let stopped = false;

  // Off until an owner configures a provider (or EXHALE_ASSISTANT_* is set): nothing is sent anywhere before.
  const assistant = createAssistant({ core, config: overridesFromEnv(), log });
  const connect = async (): Promise<void> => {
    telegram = await startTelegram({
      assistant,
      core,
      token,
      apiRoot: config.EXHALE_TELEGRAM_API_ROOT,
      publicUrl: config.EXHALE_PUBLIC_URL,
      miniAppUrl: config.EXHALE_MINIAPP_URL,
      log,
    });
    if (telegram.webhook) mount(telegram.webhook);
    const deliver = telegram.sendToMember;
    scheduler = startScheduler({ core, send: (memberId, reply) => deliver(memberId, reply), log });
  };

  let status: string;
  try {
    await connect();
    status = `  Telegram: on (${config.EXHALE_PUBLIC_URL ? 'webhook' : 'long polling'}), reminders on`;
  } catch (error) {
    if (error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404)) {
      throw new ChannelConfigError(
        `Telegram refused EXHALE_TELEGRAM_TOKEN (${error.description}). Check the token from @BotFather.`,
      );
    }
    log(
      `Telegram is not reachable (${error instanceof Error ? error.message : String(error)}); retrying every minute.`,
    );
    status = '  Telegram: not reachable yet, retrying every minute';
    const again = (): void => {
      retry = setTimeout(() => {
        if (stopped) return;
        connect().then(
          () => log('Telegram connected.'),
          () => again(),
        );
      }, RETRY_MS);
      retry.unref();
    };
    again();
  }

  return {
    status: [status],
    stop: async () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      (scheduler as Scheduler | null)?.stop();
      await (telegram as TelegramHandle | null)?.stop();
    },
  };
}
