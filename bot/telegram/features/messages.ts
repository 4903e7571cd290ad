import { Composer, type Context } from 'grammy';

import { addressedToBot, messageChannel, withoutMention } from '../address.ts';
import { conversationOf } from '../conversation.ts';
import type { FeatureDeps } from '../deps.ts';

/**
 * Text messages: commands anywhere; free text in private chats, and in groups when it mentions the
 * bot or replies to it (the mention is taken out). A command addressed to another bot
 * (`/list@other_bot`) is not ours; our own `@name` is stripped.
 */
export function messagesFeature(deps: FeatureDeps): Composer<Context> {
  const composer = new Composer<Context>();
  composer.on('message:text', async (ctx) => {
    const conv = conversationOf(ctx);
    const channel = messageChannel(ctx, deps);
    if (!conv || !channel) return;
    let text = ctx.message.text;
    const mention = /^\/[A-Za-z0-9_]+@([A-Za-z0-9_]+)/.exec(text);
    if (mention) {
      if (mention[1]?.toLowerCase() !== ctx.me.username.toLowerCase()) return;
      text = text.replace(`@${mention[1]}`, '');
    }
    const command = text.startsWith('/');
    const group = conv.where.kind === 'group';
    const addressed = !group || command || addressedToBot(ctx);
    if (!addressed) return;
    if (!command && group) text = withoutMention(text, ctx.me.username);
    const message = { chatId: String(ctx.chat.id), messageId: String(ctx.message.message_id) };
    await deps.engine.handle(conv, { kind: 'text', text, addressed, message }, channel);
  });
  return composer;
}
