import type { OpContext } from '../../../kernel/op.ts';
import { household, memberId, nowIso } from '../../shared/context.ts';

/** Revokes the acting member's live feeds (locked, in id order), returning how many. */
export async function revokeFeedsOf(ctx: OpContext): Promise<number> {
  const query = ctx.tx
    .from('calendar_feeds')
    .where({ household_id: household(ctx).id, member_id: memberId(ctx) })
    .whereNull('revoked_at')
    .orderBy('id')
    .select('id');
  const rows = (await ctx.tx.locked(query, 'calendar_feeds')) as Array<{ id: string }>;
  for (const row of rows)
    await ctx.tx.update('calendar_feeds', row.id, { revoked_at: nowIso(ctx) });
  return rows.length;
}
