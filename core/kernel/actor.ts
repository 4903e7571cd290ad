import type { Platform } from '../domain/schemas.ts';
import type { Locale } from '../i18n/index.ts';

/** Token scopes, least to most: read, write, trusted (writes without confirmation). */
export const SCOPES = ['read', 'write', 'trusted'] as const;
export type Scope = (typeof SCOPES)[number];

export const CHANNELS = [
  'telegram',
  'slack',
  'web',
  'terminal',
  'mcp',
  'cli',
  'assistant',
  'system',
  // `exhale demo`'s seeded history: shown as the demo's, never "your last change" to undo.
  'demo',
  // The OAuth consent page, where a person connects an app (connect_app): not the Mini App.
  'consent',
] as const;
export type Channel = (typeof CHANNELS)[number];

export type Role = 'owner' | 'member';

/**
 * Who is acting. A member through a channel, an agent over MCP (a token), the in-app assistant
 * (as the member who asked, never above `write`) or the system (scheduler, CLI set-up).
 * `householdId` is null only before a person has a household (creating or joining one).
 */
export interface Actor {
  kind: 'member' | 'agent' | 'assistant' | 'system';
  householdId: string | null;
  memberId: string | null;
  role: Role | null;
  scope: Scope;
  channel: Channel;
  locale: Locale;
  agent?: { name: string; tokenId?: string | undefined } | undefined;
  /**
   * Who will read the answers: `shared` when others read along (a group chat). A shared audience
   * sees no private subscription, not even the speaker's own, in lists, totals or activity.
   */
  audience?: 'personal' | 'shared' | undefined;
  /**
   * The platform account someone comes with when creating or joining a household from a chat
   * (their Telegram user id): recorded as the new member's identity.
   */
  externalId?: Partial<Record<Platform, string>> | undefined;
}

export function scopeAllows(have: Scope, need: Scope): boolean {
  return SCOPES.indexOf(have) >= SCOPES.indexOf(need);
}

/** A member acting in person through a channel: full (trusted) scope over what they may see. */
export function memberActor(
  member: { id: string; household_id: string; role: string; language: string },
  channel: Channel,
): Actor {
  return {
    kind: 'member',
    householdId: member.household_id,
    memberId: member.id,
    role: member.role === 'owner' ? 'owner' : 'member',
    scope: 'trusted',
    channel,
    locale: member.language === 'es' ? 'es' : 'en',
  };
}

/** Someone without a household yet (first /start, `exhale init`): may only create or join one. */
export function newcomerActor(
  channel: Channel,
  locale: Locale,
  externalId?: Actor['externalId'],
): Actor {
  return {
    kind: 'member',
    householdId: null,
    memberId: null,
    role: null,
    scope: 'trusted',
    channel,
    locale,
    externalId,
  };
}
