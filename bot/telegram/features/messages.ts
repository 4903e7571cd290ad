import { Composer, type Context } from 'grammy';

import { TelegramChannel } from '../channel.ts';
import { conversationOf } from '../conversation.ts';
import type { FeatureDeps } from '../deps.ts';

/**
 * Text messages: commands anywhere, free text in private chats. In groups a command addressed to
 * another bot (`/list@other_bot`) is not ours; our own `@name` is stripped.
 */
export function messagesFeature(deps: FeatureDeps): Composer<Context> {
  const composer = new Composer<Context>();
  composer.on('message:text', async (ctx) => {
    const conv = conversationOf(ctx);
    if (!conv) return;
    let text = ctx.message.text;
    const mention = /^\/[A-Za-z0-9_]+@([A-Za-z0-9_]+)/.exec(text);
    if (mention) {
      if (mention[1]?.toLowerCase() !== ctx.me.username.toLowerCase()) return;
      text = text.replace(`@${mention[1]}`, '');
    }
    if (conv.where.kind === 'group' && !text.startsWith('/')) return;
    const channel = new TelegramChannel(ctx.api, ctx.chat.id, {
      privateChat: ctx.chat.type === 'private',
      botUsername: ctx.me.username,
      threadId: ctx.message.is_topic_message ? ctx.message.message_thread_id : undefined,
    });
    await deps.engine.handle(conv, { kind: 'text', text }, channel);
  });
  return composer;
}
