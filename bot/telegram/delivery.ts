import type { Api } from 'grammy';

import { memberTelegramId, type Reply } from '../../core/chat/index.ts';
import type { Database } from '../../core/store/connection.ts';
import { TelegramChannel } from './channel.ts';

/** Sends a reply to a member's private chat; false when the member has no Telegram account linked. */
export async function sendToMember(
  api: Api,
  db: Database,
  botUsername: string,
  memberId: string,
  reply: Reply,
): Promise<boolean> {
  const telegramId = await memberTelegramId(db, memberId);
  if (telegramId === null) return false;
  await new TelegramChannel(api, Number(telegramId), { privateChat: true, botUsername }).send(
    reply,
  );
  return true;
}
