import { type Actor, memberActor, newcomerActor } from '../kernel/actor.ts';
import type { Platform } from '../domain/schemas.ts';
import { localeFrom } from '../i18n/index.ts';
import type { Database } from '../store/connection.ts';
import { memberOfAccount } from '../store/repos/identities.ts';
import type { Conversation, Person, Speaker } from './types.ts';

interface MemberRow {
  id: string;
  household_id: string;
  name: string;
  role: string;
  language: string;
}

/** `<channel>:<external id>`: who pressed, for buttons written before the person had a member. */
export function personKey(who: Person): string {
  return `${who.channel}:${who.externalId ?? who.actor?.memberId ?? 'local'}`;
}

/** The platform whose accounts identify people on a channel; null for the terminal (a known actor). */
function platformOf(who: Person): Platform | null {
  if (who.channel === 'telegram' || who.channel === 'slack') return who.channel;
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
  const platform = platformOf(who);
  if (platform && who.externalId) {
    const memberId = await memberOfAccount(db.knex, platform, who.externalId);
    const row = memberId
      ? ((await db.knex('members').where({ id: memberId }).first()) as MemberRow | undefined)
      : undefined;
    if (row) return fromMember(row, who.channel);
  }
  return newcomer(who, hint);
}

function fromMember(row: MemberRow, channel: Actor['channel']): Speaker {
  const actor = memberActor(row, channel);
  return { actor, locale: actor.locale, newcomer: false, memberName: row.name };
}

function newcomer(who: Person, locale: Speaker['locale']): Speaker {
  const platform = platformOf(who);
  const externalId = platform && who.externalId ? { [platform]: who.externalId } : undefined;
  return {
    actor: newcomerActor(who.channel, locale, externalId),
    locale,
    newcomer: true,
    memberName: null,
  };
}

/** Identifies a person in a chat: the key of the question the engine waits for them to answer. */
export function conversationKeyOf(conv: Pick<Conversation, 'who' | 'where'>): string {
  return `${conv.who.channel}:${conv.where.chatId}:${personKey(conv.who)}`;
}
