import type { Knex } from 'knex';

import type { Household } from '../../domain/schemas.ts';

/** A household as the kernel loads it for a call, and whether the acting member belongs to it. */
export interface ActingHousehold {
  household: Household;
  /** False when a member id was given and that member is not (or no longer) in the household. */
  isMember: boolean;
}

/**
 * The household a call acts in, checking in the same query that the acting member still belongs
 * to it (one round trip on every op). Null when the household does not exist.
 */
export async function loadActingHousehold(
  db: Knex | Knex.Transaction,
  householdId: string,
  memberId: string | null,
): Promise<ActingHousehold | null> {
  const query = db('households').where('households.id', householdId);
  if (memberId !== null) {
    query.leftJoin('members', (j) => {
      j.on('members.household_id', '=', 'households.id').andOnVal('members.id', '=', memberId);
    });
  }
  const row: (Household & { member_id?: string | null }) | undefined = await query.first(
    'households.id',
    'households.name',
    'households.currency',
    'households.time_zone',
    'households.locale',
    'households.created_at',
    ...(memberId !== null ? ['members.id as member_id'] : []),
  );
  if (!row) return null;
  return {
    household: {
      id: row.id,
      name: row.name,
      currency: row.currency,
      time_zone: row.time_zone,
      locale: row.locale,
      created_at: row.created_at,
    },
    isMember: memberId === null || Boolean(row.member_id),
  };
}
