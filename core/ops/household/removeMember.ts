import { z } from 'zod';

import { OpError } from '../../errors/index.ts';
import { defineOp } from '../../kernel/op.ts';
import type { Row } from '../../store/tracked.ts';
import { household, memberId, nowIso, requireOwned } from '../shared/context.ts';
import { Id } from '../../domain/schemas.ts';
import type { ShareRow } from '../../store/repos/rows.ts';
import type { SubscriptionRow } from '../../store/repos/subscriptions.ts';
import { unlinkIdentities } from './_lib/identities.ts';

export const removeMember = defineOp({
  name: 'remove_member',
  title: 'Remove a member',
  description:
    'Removes a member from the household. Their subscriptions (private ones included) and their shares of shared costs move to the member named in transfer_to, by default the owner who removes them; their agent tokens are revoked, their connected apps (OAuth grants) removed, and their chat accounts (Telegram, Slack) unlinked, so they can start afresh from them. Only the owner may; the owner cannot remove themself.',
  input: z.object({
    id: Id.describe('The member to remove.'),
    transfer_to: z
      .string()
      .optional()
      .describe('The member who takes over their subscriptions; default: the caller.'),
  }),
  output: z.object({ removed: z.string(), subscriptions_moved: z.int(), tokens_revoked: z.int() }),
  effect: 'destructive',
  scope: 'trusted',
  ownerOnly: true,
  exclude: { mcp: 'Removing a person from the household is for the owner to do in person.' },
  async run(ctx, input) {
    await requireOwned<Row>(ctx, 'members', 'member', input.id, { forUpdate: true });
    if (input.id === ctx.actor.memberId) throw new OpError('conflict', 'errors.cannot_remove_self');
    const heir = input.transfer_to ?? memberId(ctx);
    if (heir === input.id) throw new OpError('conflict', 'errors.cannot_remove_self');
    await requireOwned<Row>(ctx, 'members', 'member', heir);
    const hh = household(ctx).id;
    const subs = await ctx.tx
      .from<SubscriptionRow>('subscriptions')
      .where({ household_id: hh, member_id: input.id })
      .select('id');
    for (const sub of subs)
      await ctx.tx.update('subscriptions', sub.id, { member_id: heir, updated_at: nowIso(ctx) });
    // Their shares pass to the heir (added to the heir's own share), so shares still add up to 100 %.
    const shares = await ctx.tx
      .from<ShareRow>('subscription_shares')
      .where({ household_id: hh, member_id: input.id });
    for (const share of shares) {
      const subscriptionId = share.subscription_id;
      const heirs = await ctx.tx
        .from<ShareRow>('subscription_shares')
        .where({ subscription_id: subscriptionId, member_id: heir })
        .first();
      await ctx.tx.remove('subscription_shares', share.id);
      if (heirs) {
        await ctx.tx.update('subscription_shares', heirs.id, {
          share_bp: heirs.share_bp + share.share_bp,
        });
      } else {
        await ctx.tx.insert('subscription_shares', {
          id: `${subscriptionId}:${heir}`,
          household_id: hh,
          subscription_id: subscriptionId,
          member_id: heir,
          share_bp: share.share_bp,
        });
      }
    }
    const tokens = await ctx.tx
      .from<{ id: string; household_id: string; member_id: string; revoked_at: string | null }>(
        'tokens',
      )
      .where({ household_id: hh, member_id: input.id })
      .whereNull('revoked_at')
      .select('id');
    for (const token of tokens)
      await ctx.tx.update('tokens', token.id, { revoked_at: nowIso(ctx) });
    // Their connected apps (OAuth grants) go with them: the tokens die on the next request.
    const grants = await ctx.tx
      .from<{ id: string; household_id: string; member_id: string }>('oauth_grants')
      .where({ household_id: hh, member_id: input.id })
      .select('id');
    for (const grant of grants) await ctx.tx.remove('oauth_grants', grant.id);
    await unlinkIdentities(ctx, input.id);
    await ctx.tx.remove('members', input.id);
    return { removed: input.id, subscriptions_moved: subs.length, tokens_revoked: tokens.length };
  },
});
