import type { Context } from 'grammy';

import type { Conversation } from '../../core/chat/index.ts';

/** The engine's view of who writes where, from a Telegram update; null when there is no person or chat. */
export function conversationOf(ctx: Context): Conversation | null {
  const from = ctx.from;
  const chat = ctx.chat;
  if (!from || !chat || from.is_bot) return null;
  const group = chat.type !== 'private';
  return {
    who: {
      channel: 'telegram',
      externalId: String(from.id),
      displayName: [from.first_name, from.last_name].filter(Boolean).join(' '),
      languageCode: from.language_code,
    },
    where: {
      kind: group ? 'group' : 'private',
      chatId: String(chat.id),
      title: 'title' in chat ? chat.title : undefined,
    },
  };
}
