import { createHash } from 'node:crypto';

import { run, type RunnerHandle } from '@grammyjs/runner';
import { webhookCallback } from 'grammy';

import { ChatEngine, type ChatAssistant, type Reply } from '../../core/chat/index.ts';
import type { Core } from '../../core/kernel/core.ts';
import type { FetchHandler } from '../http/fetchHandler.ts';
import { ALLOWED_UPDATES, createBot } from './bot.ts';
import type { StreamingOptions } from './live.ts';
import { sendToMember } from './delivery.ts';
import { registerCommands, registerMiniApp } from './setup.ts';

export interface TelegramDeps {
  core: Core;
  token: string;
  /** Another Bot API server: a self-hosted telegram-bot-api, or a test fake. */
  apiRoot?: string | undefined;
  /** With a public URL the bot uses a webhook at `<publicUrl>/telegram/webhook` instead of long polling. */
  publicUrl?: string | undefined;
  miniAppUrl?: string | undefined;
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
  /** Sends a reply to a member's private chat (reminders, notices); false when they have no Telegram. */
  sendToMember(memberId: string, reply: Reply): Promise<boolean>;
  engine: ChatEngine;
}

export const WEBHOOK_PATH = '/telegram/webhook';

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
 * command menus, and tells members about changes agents made for them over MCP.
 */
export async function startTelegram(deps: TelegramDeps): Promise<TelegramHandle> {
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error));
  // The Mini App is served elsewhere for now: its button appears only when its URL is configured.
  const miniAppUrl = deps.miniAppUrl;
  const engine = new ChatEngine({ core: deps.core, miniAppUrl, assistant: deps.assistant, log });
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

  const deliver = (memberId: string, reply: Reply): Promise<boolean> =>
    sendToMember(bot.api, deps.core.db, username, memberId, reply);
  const unsubscribe = deps.core.bus.subscribe((event) => {
    if (event.kind !== 'changed' || event.actor.kind !== 'agent') return;
    void engine
      .agentNotice(event)
      .then((notice) => (notice ? deliver(notice.memberId, notice.reply) : false))
      .catch((error: unknown) => log('telegram: agent notice failed', error));
  });

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
    return {
      webhook,
      engine,
      sendToMember: deliver,
      stop: async () => {
        unsubscribe();
      },
    };
  }

  await bot.api.deleteWebhook();
  const runner: RunnerHandle = run(bot, {
    runner: { fetch: { allowed_updates: [...ALLOWED_UPDATES], timeout: 30 } },
  });
  return {
    webhook: null,
    engine,
    sendToMember: deliver,
    stop: async () => {
      unsubscribe();
      if (runner.isRunning()) await runner.stop();
    },
  };
}
