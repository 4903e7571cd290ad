import type { WebClient } from '@slack/web-api';

import type { Conversation } from '../../core/chat/index.ts';

/** What Exhale knows of a Slack user for one event: name and locale from `users.info`. */
export interface SlackProfile {
  name: string;
  locale: string | undefined;
}

const KEEP_MS = 10 * 60_000;
const MAX_KEPT = 2_000;

/**
 * `users.info` (with the locale) per user, kept for ten minutes: an event needs the person's name
 * and language hint, and asking Slack for them on every message would spend its rate limit. Only
 * a hint is kept: who the person is comes from `member_identities` on every event.
 */
export class Profiles {
  private readonly kept = new Map<string, { profile: SlackProfile; until: number }>();

  constructor(
    private readonly client: WebClient,
    private readonly log: (message: string, error?: unknown) => void,
  ) {}

  async of(user: string): Promise<SlackProfile> {
    const now = Date.now();
    const hit = this.kept.get(user);
    if (hit && hit.until > now) return hit.profile;
    let profile: SlackProfile = { name: user, locale: undefined };
    try {
      const info = await this.client.users.info({ user, include_locale: true });
      const u = info.user;
      profile = {
        name: u?.profile?.display_name || u?.real_name || u?.name || user,
        locale: u?.locale,
      };
    } catch (error) {
      // Without it the person is still answered, in English until their member says otherwise.
      this.log(`slack: users.info for ${user} failed`, error);
      return profile;
    }
    if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value ?? '');
    this.kept.set(user, { profile, until: now + KEEP_MS });
    return profile;
  }
}

/** A Slack account's external id: unique across workspaces, as `<team>:<user>`. */
export const accountOf = (team: string, user: string): string => `${team}:${user}`;

/** The DM with the app is a private chat; any other conversation is a shared audience. */
export const isDirect = (channel: string): boolean => channel.startsWith('D');

export function slackConversation(
  team: string,
  user: string,
  channel: string,
  profile: SlackProfile,
): Conversation {
  return {
    who: {
      channel: 'slack',
      externalId: accountOf(team, user),
      displayName: profile.name,
      languageCode: profile.locale,
    },
    where: {
      kind: isDirect(channel) ? 'private' : 'group',
      chatId: `${team}:${channel}`,
    },
  };
}
