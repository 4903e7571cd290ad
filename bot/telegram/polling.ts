import { run } from '@grammyjs/runner';
import { type Bot, GrammyError } from 'grammy';

import { ALLOWED_UPDATES } from './bot.ts';

/** The sentence a 409 from getUpdates is logged as: the one thing the person can do about it. */
export const POLLING_CONFLICT =
  'Telegram: another process is polling this bot, so this one stopped polling; use webhooks for several processes (set EXHALE_PUBLIC_URL).';

export interface Polling {
  stop(): Promise<void>;
}

/**
 * Long polling through @grammyjs/runner. Telegram answers 409 to a poll when another process polls
 * with the same token (or a webhook is set): the runner gives up on it, and here that ends polling
 * with one logged sentence instead of an unhandled rejection that would take the whole process
 * (HTTP, MCP, the scheduler) down. Other polling failures are retried by the runner, each logged
 * as one line.
 */
export function startPolling(bot: Bot, log: (message: string, error?: unknown) => void): Polling {
  bot.api.config.use(async (prev, method, payload, signal) => {
    if (method !== 'getUpdates') return prev(method, payload, signal);
    try {
      const result = await prev(method, payload, signal);
      if (!result.ok && result.error_code !== 409)
        log(`Telegram: polling failed (${result.description}); retrying.`);
      return result;
    } catch (error) {
      if (!signal?.aborted) log('Telegram: polling failed; retrying.', error);
      throw error;
    }
  });
  const runner = run(bot, {
    // The runner's own console output would repeat what is logged above.
    runner: { fetch: { allowed_updates: [...ALLOWED_UPDATES], timeout: 30 }, silent: true },
  });
  const done = runner.task()?.catch((error: unknown) => {
    if (error instanceof GrammyError && error.error_code === 409) log(POLLING_CONFLICT);
    else log('Telegram: polling stopped', error);
  });
  return {
    stop: async () => {
      if (runner.isRunning()) await runner.stop();
      await done;
    },
  };
}
