import { OpError } from '../../../errors/index.ts';
import type { OpContext } from '../../../kernel/op.ts';
import { isUniqueViolation } from '../../../store/failures.ts';
import { identitiesOf, identityId, memberOfAccount } from '../../../store/repos/identities.ts';
import { PLATFORMS, type Platform } from '../../../domain/schemas.ts';

/**
 * Records the platform accounts the actor came with (their Telegram user id when they start from
 * Telegram) as the new member's identities, through `ctx.tx` so undoing the op removes them. An
 * account that already belongs to a member is refused as "already in a household", also when a
 * concurrent call (another process) records it first.
 */
export async function linkIdentities(ctx: OpContext, memberId: string, now: string): Promise<void> {
  let position = 0;
  for (const platform of PLATFORMS) {
    const externalId = ctx.actor.externalId?.[platform];
    if (!externalId) continue;
    if ((await memberOfAccount(ctx.tx.trx, platform, externalId)) !== null)
      throw new OpError('conflict', 'errors.already_in_household');
    try {
      await ctx.tx.insert('member_identities', {
        id: identityId(platform, externalId),
        member_id: memberId,
        platform,
        external_id: externalId,
        position,
        created_at: now,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new OpError('conflict', 'errors.already_in_household');
      throw error;
    }
    position += 1;
  }
}

/** Removes a member's accounts (the member leaves): the person may start afresh from them. */
export async function unlinkIdentities(ctx: OpContext, memberId: string): Promise<void> {
  await ctx.tx.removeWhere('member_identities', { member_id: memberId });
}

/**
 * Puts a member's channels in the order given: the platforms listed first, in that order, then
 * the member's other accounts in their current order. Platforms the member has no account on are
 * ignored (the order is a preference, kept for the accounts that exist).
 */
export async function orderIdentities(
  ctx: OpContext,
  memberId: string,
  order: readonly Platform[],
): Promise<void> {
  const current = await identitiesOf(ctx.tx.trx, memberId);
  const rank = (platform: string): number => {
    const i = order.findIndex((p) => p === platform);
    return i === -1 ? order.length : i;
  };
  const wanted = current
    .map((row, index) => ({ row, index }))
    .sort((a, b) => rank(a.row.platform) - rank(b.row.platform) || a.index - b.index)
    .map(({ row }) => row);
  for (const [position, row] of wanted.entries()) {
    if (Number(row.position) !== position)
      await ctx.tx.update('member_identities', row.id, { position });
  }
}
