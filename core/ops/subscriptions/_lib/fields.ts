import { z } from 'zod';

import { parsePercent } from '../../../domain/money.ts';
import { OpError } from '../../../errors/index.ts';
import type { OpContext } from '../../../kernel/op.ts';
import type { SubscriptionRow } from '../../../store/repos/subscriptions.ts';
import { nameKey } from '../../organize/_lib/names.ts';
import { fieldError, household, requireOwned } from '../../shared/context.ts';
import { Id, ShortName } from '../../../domain/schemas.ts';

export const ShareInput = z.object({
  member_id: Id,
  percent: z
    .string()
    .regex(/^\d{1,3}(\.\d{1,2})?$/)
    .describe('Percent, such as "50".'),
});

export const TagNames = z.array(ShortName).max(20).describe('Tag names; missing tags are created.');

/**
 * Resolves a category given by id or by name (created when missing) to its id. Giving both is
 * an error; giving neither leaves it as is (`undefined`); `null` clears it.
 */
export async function resolveNamed(
  ctx: OpContext,
  table: 'categories' | 'payment_methods',
  byId: string | null | undefined,
  byName: string | undefined,
  field: string,
): Promise<string | null | undefined> {
  if (byId !== undefined && byName !== undefined)
    throw fieldError(ctx, field, 'errors.input.id_or_name');
  if (byId === null) return null;
  if (byId !== undefined) {
    await requireOwned(ctx, table, table === 'categories' ? 'category' : 'payment_method', byId);
    return byId;
  }
  if (byName === undefined) return undefined;
  const hh = household(ctx).id;
  // Compared in JS: SQLite's lower() folds ASCII only, so "Éducation" must not depend on the database.
  const rows = await ctx.tx.from(table).where({ household_id: hh }).select('id', 'name');
  const existing = rows.find((r) => nameKey(String(r.name)) === nameKey(byName));
  if (existing) return String(existing.id);
  const row = await ctx.tx.insert(table, {
    id: ctx.newId(table === 'categories' ? 'cat' : 'pm'),
    household_id: hh,
    name: byName,
    ...(table === 'categories' ? { color: null } : { kind: 'other', last4: null }),
    created_at: ctx.now.toISOString(),
  });
  return String(row.id);
}

/** Finds tags by name (case-insensitive), creating the missing ones; returns their ids in input order. */
export async function ensureTags(ctx: OpContext, names: readonly string[]): Promise<string[]> {
  const hh = household(ctx).id;
  const existing = await ctx.tx.from('tags').where({ household_id: hh });
  const byLower = new Map(existing.map((t) => [nameKey(String(t.name)), String(t.id)]));
  const ids: string[] = [];
  for (const name of names) {
    let id = byLower.get(nameKey(name));
    if (!id) {
      const row = await ctx.tx.insert('tags', {
        id: ctx.newId('tag'),
        household_id: hh,
        name,
        created_at: ctx.now.toISOString(),
      });
      id = String(row.id);
      byLower.set(nameKey(name), id);
    }
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** Makes a subscription's tags exactly `tagIds`, recording each link added or removed. */
export async function setTagLinks(
  ctx: OpContext,
  subscriptionId: string,
  tagIds: readonly string[],
): Promise<void> {
  const links = await ctx.tx.from('subscription_tags').where({ subscription_id: subscriptionId });
  for (const link of links) {
    if (!tagIds.includes(String(link.tag_id)))
      await ctx.tx.remove('subscription_tags', String(link.id));
  }
  const have = new Set(links.map((l) => String(l.tag_id)));
  for (const tagId of tagIds) {
    if (have.has(tagId)) continue;
    await ctx.tx.insert('subscription_tags', {
      id: `${subscriptionId}:${tagId}`,
      household_id: household(ctx).id,
      subscription_id: subscriptionId,
      tag_id: tagId,
    });
  }
}

/** Replaces a subscription's shares; they must name members of the household and add up to 100 %. */
export async function setShares(
  ctx: OpContext,
  subscriptionId: string,
  shares: ReadonlyArray<z.infer<typeof ShareInput>>,
): Promise<void> {
  let total = 0;
  const seen = new Set<string>();
  for (const share of shares) {
    await requireOwned(ctx, 'members', 'member', share.member_id);
    if (seen.has(share.member_id)) throw fieldError(ctx, 'shares', 'errors.input.shares_duplicate');
    seen.add(share.member_id);
    const bp = parsePercent(share.percent);
    total += bp.ok ? bp.minor : 0;
  }
  if (shares.length > 0 && total !== 10_000)
    throw fieldError(ctx, 'shares', 'errors.input.shares_total');
  await ctx.tx.removeWhere('subscription_shares', { subscription_id: subscriptionId });
  for (const share of shares) {
    const bp = parsePercent(share.percent);
    await ctx.tx.insert('subscription_shares', {
      id: `${subscriptionId}:${share.member_id}`,
      household_id: household(ctx).id,
      subscription_id: subscriptionId,
      member_id: share.member_id,
      share_bp: bp.ok ? bp.minor : 0,
    });
  }
}

/** Checks the dates of a subscription row against each other. */
export function checkDates(
  ctx: OpContext,
  row: Pick<SubscriptionRow, 'status' | 'trial_ends_on'>,
): void {
  if (row.status === 'trial' && row.trial_ends_on === null)
    throw fieldError(ctx, 'trial_ends_on', 'errors.input.trial_end_required');
  // A cancellation before the first charge is a trial (or a plan) stopped before it cost anything:
  // the series then has no charges at all.
}

/**
 * Whose subscription it is. By default the caller's (or, for the system, the owner's). Only the
 * owner may give a subscription to another member, or take one from its member: otherwise a
 * member could take someone's subscription, mark it private and hide it from them.
 */
export async function resolveOwner(
  ctx: OpContext,
  requested: string | undefined,
  current?: string,
): Promise<string> {
  const self = ctx.actor.memberId;
  if (requested === undefined || (requested === self && current === undefined)) {
    if (self) return self;
    const owner = await ctx.tx
      .from('members')
      .where({ household_id: household(ctx).id, role: 'owner' })
      .first();
    if (!owner) throw new OpError('internal');
    return String(owner.id);
  }
  if (requested === current) return requested;
  await requireOwned(ctx, 'members', 'member', requested);
  if (ctx.actor.role !== 'owner') throw new OpError('forbidden', 'errors.owner_only');
  return requested;
}
