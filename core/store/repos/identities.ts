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
