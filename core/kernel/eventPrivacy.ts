import type { Database } from '../store/connection.ts';
import { auditEntryById } from '../store/repos/audit.ts';
import type { Actor } from './actor.ts';
import type { ChangeEvent } from './events.ts';

/**
 * Whether a committed change may be announced to an actor (a live screen, a stream): it is of the
 * actor's household, and it touched no other member's private subscription (the audit entry's
 * `private_to`, the rule the activity list follows). A shared audience hears of no private change
 * at all. One read of the entry; a change whose entry is gone is not announced.
 */
export async function eventVisibleTo(
  db: Database,
  event: ChangeEvent,
  actor: Pick<Actor, 'householdId' | 'memberId' | 'audience'>,
): Promise<boolean> {
  if (event.householdId !== actor.householdId) return false;
  const entry = await auditEntryById(db.knex, event.auditId);
  if (!entry) return false;
  if (entry.private_to === null) return true;
  return actor.audience !== 'shared' && entry.private_to === actor.memberId;
}
