import type { Database } from '../../store/connection.ts';
import type { SentRef } from '../types.ts';
import type { Turn } from '../turn.ts';
import { helpReply } from './help.ts';
import { defineFeature } from '../feature.ts';

export interface ChatLink {
  id: string;
  channel: string;
  chat_id: string;
  household_id: string;
  linked_by: string;
  title: string | null;
  created_at: string;
}

function linkId(channel: string, chatId: string): string {
  return `${channel}:${chatId}`;
}

/** The household a group chat is linked to, if any. */
export async function groupLink(
  db: Database,
  channel: string,
  chatId: string,
): Promise<ChatLink | null> {
  const row = (await db
    .knex('chat_links')
    .where({ id: linkId(channel, chatId) })
    .first()) as ChatLink | undefined;
  return row ?? null;
}

/**
 * Forgets a group's link when the bot is removed from it: whoever adds the bot again may link the
 * group to their own household.
 */
export async function forgetGroup(db: Database, channel: string, chatId: string): Promise<void> {
  await db
    .knex('chat_links')
    .where({ id: linkId(channel, chatId) })
    .delete();
}

async function householdName(turn: Turn): Promise<string> {
  const result = await turn.invoke('get_household', {});
  return (result.output as { name: string }).name;
}

/** In a group: says whether it is linked to the speaker's household, offering to link it. */
export async function offerLink(turn: Turn): Promise<void> {
  const link = await groupLink(turn.db, turn.conv.who.channel, turn.conv.where.chatId);
  if (link && link.household_id === turn.actor.householdId) {
    await turn.send(helpReply(turn, turn.t('chat.group.linked_already')));
    return;
  }
  if (link) {
    await turn.say(turn.t('chat.group.linked_elsewhere'));
    return;
  }
  const reply = turn
    .reply()
    .say(turn.t('chat.group.offer_link', { household: await householdName(turn) }));
  reply.row(
    reply.action(turn.t('chat.button.link_group'), {
      t: 'link_group',
      chatId: turn.conv.where.chatId,
      title: turn.conv.where.title ?? null,
    }),
  );
  await turn.send(reply);
}

/** `/link` in a group. */
export async function linkGroup(turn: Turn): Promise<void> {
  await offerLink(turn);
}

/** The "Link this group" button: one group, one household; a second link is refused. */
export async function pressLink(
  turn: Turn,
  chatId: string,
  title: string | null,
  ref: SentRef | null,
): Promise<void> {
  const householdId = turn.actor.householdId;
  if (householdId === null || turn.actor.memberId === null) return;
  const channel = turn.conv.who.channel;
  const inserted = (await turn.db
    .knex('chat_links')
    .insert({
      id: linkId(channel, chatId),
      channel,
      chat_id: chatId,
      household_id: householdId,
      linked_by: turn.actor.memberId,
      title,
      created_at: turn.now.toISOString(),
    })
    .onConflict('id')
    .ignore()
    .returning('id')) as unknown[];
  if (inserted.length === 0) {
    await turn.update(ref, turn.reply().say(turn.t('chat.group.linked_elsewhere')));
    return;
  }
  await turn.update(
    ref,
    helpReply(turn, turn.t('chat.group.linked', { household: await householdName(turn) })),
  );
}

/**
 * Whether a command may run in this group: the group must be linked to the speaker's household.
 * Returns the sentence to answer with when it may not.
 */
export async function groupRefusal(turn: Turn): Promise<string | null> {
  if (!turn.inGroup) return null;
  const link = await groupLink(turn.db, turn.conv.who.channel, turn.conv.where.chatId);
  if (!link) return turn.t('chat.group.not_linked');
  if (link.household_id !== turn.actor.householdId) return turn.t('chat.group.linked_elsewhere');
  return null;
}

/** Group chats: /link ties a group to the household of the member who links it. */
export const groupsFeature = defineFeature({
  name: 'groups',
  commands: [
    {
      command: 'link',
      op: null,
      place: 'group',
      newcomer: false,
      beforeLink: true,
      run: linkGroup,
    },
  ],
  actions: {
    link_group: (turn, action, ref) => pressLink(turn, action.chatId, action.title, ref),
  },
});
