import type { Database } from '../store/connection.ts';
import { hashSecret, isSecretShaped } from './secrets.ts';

/**
 * Calendar feed tokens: the secret in a member's iCal URL (`/cal/<token>.ics`), the feed's only
 * credential (a calendar app sends no headers). `cal_` and 32 base-32 characters; stored hashed.
 */
export const FEED_PREFIX = 'cal_';
export const FEED_LENGTH = 32;

/** Whose feed a token opens: null when malformed, unknown, revoked, or the member left. */
export async function calendarFeedOwner(
  db: Database,
  token: string,
): Promise<{
  feedId: string;
  householdId: string;
  memberId: string;
  role: string;
  language: string;
} | null> {
  if (!isSecretShaped(token, FEED_LENGTH, FEED_PREFIX)) return null;
  const row = (await db
    .knex('calendar_feeds')
    .join('members', function joinMember() {
      this.on('members.id', '=', 'calendar_feeds.member_id').andOn(
        'members.household_id',
        '=',
        'calendar_feeds.household_id',
      );
    })
    .where('calendar_feeds.token_hash', hashSecret(token))
    .whereNull('calendar_feeds.revoked_at')
    .first(
      'calendar_feeds.id as feedId',
      'calendar_feeds.household_id as householdId',
      'calendar_feeds.member_id as memberId',
      'members.role as role',
      'members.language as language',
    )) as
    | { feedId: string; householdId: string; memberId: string; role: string; language: string }
    | undefined;
  return row ?? null;
}
