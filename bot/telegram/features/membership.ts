import { Composer, type Context } from 'grammy';

import { TelegramChannel } from '../channel.ts';
import { conversationOf } from '../conversation.ts';
import type { FeatureDeps } from '../deps.ts';

/**
 * The bot added to a group: it introduces itself and offers the person who added it to link the
 * group. Removed from one: the group's link ends.
 */
export function membershipFeature(deps: FeatureDeps): Composer<Context> {
  const composer = new Composer<Context>();
  composer.on('my_chat_member', async (ctx) => {
    const { old_chat_member: before, new_chat_member: after, chat } = ctx.myChatMember;
    if (chat.type === 'private' || chat.type === 'channel') return;
    const gone = (status: string): boolean => status === 'left' || status === 'kicked';
    if (gone(after.status)) {
      await deps.engine.groupLeft('telegram', String(chat.id));
      return;
    }
    const joined =
      gone(before.status) && (after.status === 'member' || after.status === 'administrator');
    if (!joined) return;
    const conv = conversationOf(ctx);
    if (!conv) return;
    const channel = new TelegramChannel(ctx.api, chat.id, {
      privateChat: false,
      botUsername: ctx.me.username,
    });
    await deps.engine.handle(conv, { kind: 'text', text: '/start' }, channel);
  });
  return composer;
}
