import { autoRetry } from '@grammyjs/auto-retry';
import { sequentialize } from '@grammyjs/runner';
import { Bot, type Context } from 'grammy';

import type { ChatEngine } from '../../core/chat/index.ts';
import type { FeatureDeps } from './deps.ts';
import { dedupeUpdates } from './features/dedupe.ts';
import { errorBoundary } from './features/errors.ts';
import { filesFeature } from './features/files.ts';
import { membershipFeature } from './features/membership.ts';
import { messagesFeature } from './features/messages.ts';
import { pressesFeature } from './features/presses.ts';
import { STREAMING, type StreamingOptions } from './live.ts';

/** The updates the bot asks Telegram for. */
export const ALLOWED_UPDATES = ['message', 'callback_query', 'my_chat_member'] as const;

export interface BotOptions {
  token: string;
  engine: ChatEngine;
  apiRoot?: string | undefined;
  log: (message: string, error?: unknown) => void;
  /** Skip updates already handled (webhook mode, where Telegram re-delivers). */
  dedupe?: boolean;
  /** How often a live answer may update Telegram (tests lower it); defaults in live.ts. */
  streaming?: Partial<StreamingOptions> | undefined;
}

const DEFAULT_API_ROOT = 'https://api.telegram.org';

/**
 * Updates of one chat are handled in order; button presses run in a lane of their own so a press
 * (Undo, Cancel) is not stuck behind a slow message of the same chat.
 */
export function lane(ctx: Context): string | undefined {
  const chat = ctx.chat?.id;
  if (chat === undefined) return undefined;
  return ctx.callbackQuery ? `press:${chat}` : `chat:${chat}`;
}

/**
 * The grammY bot: auto-retry on 429 (honouring retry_after) and 5xx, per-chat order, an error
 * boundary, and the features as Composers. Transport (polling or webhook) is chosen by the caller.
 */
export function createBot(options: BotOptions): Bot {
  const bot = new Bot(
    options.token,
    options.apiRoot ? { client: { apiRoot: options.apiRoot } } : {},
  );
  bot.api.config.use(autoRetry({ maxRetryAttempts: 5, maxDelaySeconds: 60 }));
  bot.use(sequentialize(lane));
  bot.use(errorBoundary(options.log));
  if (options.dedupe) bot.use(dedupeUpdates(options.engine.core.db, options.engine.core.clock));
  const apiRoot = (options.apiRoot ?? DEFAULT_API_ROOT).replace(/\/+$/, '');
  const deps: FeatureDeps = {
    engine: options.engine,
    log: options.log,
    streaming: { ...STREAMING, ...(options.streaming ?? {}) },
    fileUrl: (path) => `${apiRoot}/file/bot${options.token}/${path}`,
  };
  bot.use(messagesFeature(deps), filesFeature(deps), pressesFeature(deps), membershipFeature(deps));
  bot.catch((error) =>
    options.log(`telegram: update ${error.ctx.update.update_id} failed`, error.error),
  );
  return bot;
}
