import { type Actor, memberActor, newcomerActor } from '../kernel/actor.ts';
import type { Platform } from '../domain/schemas.ts';
import { localeFrom } from '../i18n/index.ts';
import { cachedSharedRead, type Freshness } from '../kernel/readCache.ts';
import type { Database } from '../store/connection.ts';
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

/** The member a platform account belongs to, in one query (the account's row joined to its member). */
async function memberOfPlatformAccount(
  db: Database,
  platform: Platform,
  externalId: string,
): Promise<MemberRow | undefined> {
  return (await db
    .knex('member_identities as i')
    .join('members as m', 'm.id', 'i.member_id')
    .where({ 'i.platform': platform, 'i.external_id': externalId })
    .first('m.id', 'm.household_id', 'm.name', 'm.role', 'm.language')) as MemberRow | undefined;
}

/**
 * Finds the member behind a person: the given actor (terminal), or the member whose platform id
 * matches. Read fresh for every event, so a role or language change applies at once. `cached`
 * (the web API, called many times a second): a found account's member comes from the read cache,
 * as strict as the kernel's membership check (SQLite only, dropped by any change of any household
 * and by another connection's commit; on PostgreSQL always read), so a role change, an unlinked
 * account or a member who left still counts from the next request on. `fresh`: the request's
 * freshness check (readCache.ts), shared with the kernel's.
 */
export async function resolveSpeaker(
  db: Database,
  who: Person,
  options: { cached?: boolean; fresh?: Freshness | undefined } = {},
): Promise<Speaker> {
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
    const externalId = who.externalId;
    const read = () => memberOfPlatformAccount(db, platform, externalId);
    const row =
      options.cached === true
        ? await cachedSharedRead(db.knex, `account:${platform}:${externalId}`, read, {
            strict: true,
            keep: (found) => found !== undefined,
            fresh: options.fresh,
          })
        : await read();
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
