import type { Knex } from 'knex';

import type { Platform } from '../../domain/schemas.ts';

/** A `member_identities` row as stored: one platform account of a member. */
export interface IdentityRow {
  id: string;
  member_id: string;
  platform: string;
  external_id: string;
  /** The member's order of channels: lowest first. */
  position: number;
  created_at: string;
}

/** The row id of an account: one account is one member's, on every database (the primary key). */
export function identityId(platform: Platform, externalId: string): string {
  return `${platform}:${externalId}`;
}

/** The member a platform account belongs to, or null when nobody has it. */
export async function memberOfAccount(
  db: Knex | Knex.Transaction,
  platform: Platform,
  externalId: string,
): Promise<string | null> {
  const row = (await db('member_identities')
    .where({ platform, external_id: externalId })
    .first('member_id')) as { member_id: string } | undefined;
  return row?.member_id ?? null;
}

/**
 * A member's accounts in the order the member chose (then the order they were added in, then
 * id, so every database answers alike).
 */
export async function identitiesOf(
  db: Knex | Knex.Transaction,
  memberId: string,
): Promise<IdentityRow[]> {
  return (await db('member_identities')
    .where({ member_id: memberId })
    .orderBy([
      { column: 'position' },
      { column: 'created_at' },
      { column: 'id' },
    ])) as IdentityRow[];
}

/** The accounts on one platform of a household's members (App Home is redrawn for each). */
export async function accountsInHousehold(
  db: Knex | Knex.Transaction,
  householdId: string,
  platform: Platform,
): Promise<Array<{ memberId: string; externalId: string }>> {
  const rows = (await db('member_identities as i')
    .join('members as m', 'm.id', 'i.member_id')
    .where({ 'm.household_id': householdId, 'i.platform': platform })
    .orderBy('i.id')
    .select('i.member_id', 'i.external_id')) as Array<{ member_id: string; external_id: string }>;
  return rows.map((r) => ({ memberId: r.member_id, externalId: r.external_id }));
}
