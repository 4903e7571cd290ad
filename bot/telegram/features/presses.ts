import { Composer, type Context } from 'grammy';

import { TelegramChannel } from '../channel.ts';
import { conversationOf } from '../conversation.ts';
import type { FeatureDeps } from '../deps.ts';

/**
 * Button presses. The payload is a reference to a `flows` row, so any process answers any press.
 * The callback query is always answered once, with the engine's notice as a toast when it gave one.
 */
export function pressesFeature(deps: FeatureDeps): Composer<Context> {
  const composer = new Composer<Context>();
  composer.on('callback_query:data', async (ctx) => {
    const conv = conversationOf(ctx);
    const chat = ctx.chat;
    if (!conv || !chat) {
      await ctx.answerCallbackQuery();
      return;
    }
    const message = ctx.callbackQuery.message;
    const channel = new TelegramChannel(ctx.api, chat.id, {
      privateChat: chat.type === 'private',
      botUsername: ctx.me.username,
    });
    try {
      await deps.engine.handle(
        conv,
        {
          kind: 'press',
          payload: ctx.callbackQuery.data,
          message:
            message && message.date !== 0
              ? { chatId: String(chat.id), messageId: String(message.message_id) }
              : null,
        },
        channel,
      );
    } finally {
      await ctx
        .answerCallbackQuery(channel.noticeText ? { text: channel.noticeText } : undefined)
        .catch((error: unknown) => deps.log('telegram: answerCallbackQuery failed', error));
    }
  });
  return composer;
}
