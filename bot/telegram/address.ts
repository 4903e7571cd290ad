import type { Context } from 'grammy';
import type { MessageEntity } from 'grammy/types';

import { TelegramChannel } from './channel.ts';
import type { FeatureDeps } from './deps.ts';

/**
 * Whether a group message is meant for the bot: it mentions the bot (`@name`, or a mention of its
 * user) or replies to one of the bot's messages. With privacy mode on, these and commands are the
 * only group messages Telegram delivers to a bot anyway.
 */
export function addressedToBot(ctx: Context): boolean {
  const message = ctx.message;
  if (!message) return false;
  if (message.reply_to_message?.from?.id === ctx.me.id) return true;
  const text = message.text ?? message.caption ?? '';
  const entities: MessageEntity[] = message.entities ?? message.caption_entities ?? [];
  const handle = `@${ctx.me.username}`.toLowerCase();
  return entities.some(
    (e) =>
      (e.type === 'mention' &&
        text.slice(e.offset, e.offset + e.length).toLowerCase() === handle) ||
      (e.type === 'text_mention' && e.user.id === ctx.me.id),
  );
}

/** The text without the bot's `@name` (it says who is addressed, not what is asked). */
export function withoutMention(text: string, username: string): string {
  const escaped = username.replace(/[^A-Za-z0-9_]/g, '');
  return text
    .replace(new RegExp(`@${escaped}\\b`, 'gi'), '')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/** The engine's channel for the chat a message arrived in (its forum topic kept). */
export function messageChannel(ctx: Context, deps: FeatureDeps): TelegramChannel | null {
  const chat = ctx.chat;
  const message = ctx.message;
  if (!chat || !message) return null;
  return new TelegramChannel(ctx.api, chat.id, {
    privateChat: chat.type === 'private',
    botUsername: ctx.me.username,
    threadId: message.is_topic_message ? message.message_thread_id : undefined,
    streaming: deps.streaming,
    log: deps.log,
  });
}
