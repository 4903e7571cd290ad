import { type Actor, memberActor, newcomerActor } from '../kernel/actor.ts';
import { localeFrom } from '../i18n/index.ts';
import type { Database } from '../store/connection.ts';
import type { Conversation, Person, Speaker } from './types.ts';

interface MemberRow {
  id: string;
  household_id: string;
  name: string;
  role: string;
  language: string;
  telegram_user_id: string | null;
  slack_user_id: string | null;
}

/** `<channel>:<external id>`: who pressed, for buttons written before the person had a member. */
export function personKey(who: Person): string {
  return `${who.channel}:${who.externalId ?? who.actor?.memberId ?? 'local'}`;
}

function externalColumn(who: Person): 'telegram_user_id' | 'slack_user_id' | null {
  if (who.channel === 'telegram') return 'telegram_user_id';
  if (who.channel === 'slack') return 'slack_user_id';
  return null;
}

/**
 * Finds the member behind a person: the given actor (terminal), or the member whose platform id
 * matches. Read fresh for every event, so a role or language change applies at once.
 */
export async function resolveSpeaker(db: Database, who: Person): Promise<Speaker> {
  const hint = localeFrom(who.languageCode);
  if (who.actor && who.actor.memberId !== null) {
    const row = (await db.knex('members').where({ id: who.actor.memberId }).first()) as
      MemberRow | undefined;
    if (row) return fromMember(row, who.actor.channel);
    return newcomer(who, who.actor.locale);
  }
  if (who.actor) return newcomer(who, who.actor.locale);
  const column = externalColumn(who);
  if (column && who.externalId) {
    const row = (await db
      .knex('members')
      .where(column, who.externalId)
      .orderBy('created_at')
      .first()) as MemberRow | undefined;
    if (row) return fromMember(row, who.channel);
  }
  return newcomer(who, hint);
}

function fromMember(row: MemberRow, channel: Actor['channel']): Speaker {
  const actor = memberActor(row, channel);
  return { actor, locale: actor.locale, newcomer: false, memberName: row.name };
}

function newcomer(who: Person, locale: Speaker['locale']): Speaker {
  const externalId =
    who.channel === 'telegram' && who.externalId
      ? { telegram: who.externalId }
      : who.channel === 'slack' && who.externalId
        ? { slack: who.externalId }
        : undefined;
  return {
    actor: newcomerActor(who.channel, locale, externalId),
    locale,
    newcomer: true,
    memberName: null,
  };
}

/** The member's platform id, for delivering a message to them outside a conversation. */
export async function memberTelegramId(db: Database, memberId: string): Promise<string | null> {
  const row = (await db.knex('members').where({ id: memberId }).first('telegram_user_id')) as
    { telegram_user_id: string | null } | undefined;
  return row?.telegram_user_id ?? null;
}

/** Identifies a person in a chat: the key of the question the engine waits for them to answer. */
export function conversationKeyOf(conv: Pick<Conversation, 'who' | 'where'>): string {
  return `${conv.who.channel}:${conv.where.chatId}:${personKey(conv.who)}`;
}
