import { createHash } from 'node:crypto';

import { webhookCallback } from 'grammy';

import { ChatEngine, type ChatAssistant, type Reply } from '../../core/chat/index.ts';
import type { FetchHandler } from '../http/fetchHandler.ts';
import { ALLOWED_UPDATES, createBot } from './bot.ts';
import { TelegramChannel } from './channel.ts';
import type { StreamingOptions } from './live.ts';
import { WEBHOOK_PATH } from './paths.ts';
import { startPolling } from './polling.ts';
import { registerCommands, registerMiniApp } from './setup.ts';
import type { Core } from '../../core/index.ts';

export interface TelegramDeps {
  core: Core;
  token: string;
  /** Another Bot API server: a self-hosted telegram-bot-api, or a test fake. */
  apiRoot?: string | undefined;
  /** With a public URL the bot uses a webhook at `<publicUrl>/telegram/webhook` instead of long polling. */
  publicUrl?: string | undefined;
  /** Where the Mini App is served elsewhere (EXHALE_MINIAPP_URL); default `<publicUrl>/app/` when https. */
  miniAppUrl?: string | undefined;
  /** Where Exhale's web is (sign-in links from /web): the public URL or the local address. */
  webUrl?: string | undefined;
  webhookSecret?: string | undefined;
  /**
   * The built-in assistant (`createAssistant` from core/assistant): free text and files go to it
   * in households where it is configured, answered live; without it free text gets the commands.
   */
  assistant?: ChatAssistant | undefined;
  /** How often a live answer may update Telegram; the defaults suit production (tests lower them). */
  streaming?: Partial<StreamingOptions> | undefined;
  log?: ((message: string, error?: unknown) => void) | undefined;
}

export interface TelegramHandle {
  stop(): Promise<void>;
  /** The webhook endpoint to mount on the HTTP host; null in long-polling mode. */
  webhook: FetchHandler | null;
  /** Sends a reply to a person's private chat (reminders, notices), by their Telegram user id. */
  sendTo(userId: string, reply: Reply): Promise<void>;
  engine: ChatEngine;
  /** The bot's @username, as getMe answered at start (t.me links, the web app's invite links). */
  username: string;
}

export { WEBHOOK_PATH };

/** A webhook secret derived from the bot token, so every process of one deployment agrees on it. */
export function deriveWebhookSecret(token: string): string {
  return createHash('sha256')
    .update(`exhale-telegram-webhook:${token}`)
    .digest('base64url')
    .slice(0, 64);
}

/**
 * Starts the Telegram bot: long polling through @grammyjs/runner by default, or a webhook with a
 * secret token when a public URL is set (then `webhook` is the handler to mount). Registers the
 * command menus. Reminders and agent notices reach members through `sendTo`, called by the
 * channel registry (`bot/telegram/adapter.ts`).
 */
export async function startTelegram(deps: TelegramDeps): Promise<TelegramHandle> {
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error));
  // Exhale serves the Mini App at /app/; Telegram opens Web Apps only over https, so its buttons
  // appear when the public URL is https (or the app is served elsewhere: EXHALE_MINIAPP_URL).
  const miniAppUrl = deps.miniAppUrl ?? servedMiniAppUrl(deps.publicUrl);
  const engine = new ChatEngine({
    core: deps.core,
    miniAppUrl,
    webUrl: deps.webUrl ?? deps.publicUrl,
    assistant: deps.assistant,
    log,
  });
  const bot = createBot({
    token: deps.token,
    apiRoot: deps.apiRoot,
    engine,
    log,
    dedupe: deps.publicUrl !== undefined,
    streaming: deps.streaming,
  });
  await bot.init();
  const username = bot.botInfo.username;
  await registerCommands(bot.api, engine);
  if (engine.miniAppUrl) await registerMiniApp(bot.api, engine.miniAppUrl);

  const sendTo = async (userId: string, reply: Reply): Promise<void> => {
    await new TelegramChannel(bot.api, Number(userId), {
      privateChat: true,
      botUsername: username,
    }).send(reply);
  };

  if (deps.publicUrl) {
    const secretToken = deps.webhookSecret ?? deriveWebhookSecret(deps.token);
    await bot.api.setWebhook(`${deps.publicUrl.replace(/\/+$/, '')}${WEBHOOK_PATH}`, {
      secret_token: secretToken,
      allowed_updates: [...ALLOWED_UPDATES],
    });
    const handle = webhookCallback(bot, 'std/http', {
      secretToken,
      onTimeout: 'return',
      timeoutMilliseconds: 9_000,
    });
    const webhook: FetchHandler = async (request) => {
      if (request.method !== 'POST' || !new URL(request.url).pathname.endsWith(WEBHOOK_PATH))
        return null;
      return handle(request);
    };
    return { webhook, engine, sendTo, username, stop: async () => undefined };
  }

  await bot.api.deleteWebhook();
  const polling = startPolling(bot, log);
  return { webhook: null, engine, sendTo, username, stop: () => polling.stop() };
}

/** The Mini App Exhale serves itself, `<public URL>/app/`, when the public URL is https; else none. */
export function servedMiniAppUrl(publicUrl: string | undefined): string | undefined {
  if (!publicUrl?.startsWith('https://')) return undefined;
  return `${publicUrl.replace(/\/+$/, '')}/app/`;
}
