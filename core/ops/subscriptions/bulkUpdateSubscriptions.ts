import { z } from 'zod';

import { notFound } from '../../errors/index.ts';
import { defineOp } from '../../kernel/op.ts';
import {
  type SubscriptionRow,
  visibleSubscriptions,
  chunked,
} from '../../store/repos/subscriptions.ts';
import { household, nowIso } from '../shared/context.ts';
import { Id } from '../../domain/schemas.ts';
import { ensureTags, resolveNamed, setTagLinks, TagNames } from './_lib/fields.ts';
import { cancel, pause, remove, resume } from './_lib/lifecycle.ts';
import type { SubscriptionTagRow } from '../../store/repos/rows.ts';

const Action = z.discriminatedUnion('action', [
  z.object({
    action: z.literal('set_category'),
    category_id: Id.nullable().optional(),
    category: z.string().trim().min(1).max(80).optional(),
  }),
  z.object({
    action: z.literal('set_payment_method'),
    payment_method_id: Id.nullable().optional(),
    payment_method: z.string().trim().min(1).max(80).optional(),
  }),
  z.object({ action: z.literal('set_tags'), tags: TagNames }),
  z.object({ action: z.literal('add_tags'), tags: TagNames }),
  z.object({ action: z.literal('pause') }),
  z.object({ action: z.literal('resume') }),
  z.object({ action: z.literal('cancel') }),
  z.object({ action: z.literal('delete') }),
]);

export const bulkUpdateSubscriptions = defineOp({
  name: 'bulk_update_subscriptions',
  title: 'Change many subscriptions',
  description:
    'Applies one action to up to 500 subscriptions, all or nothing: set the category or payment method, set or add tags, pause, resume, cancel or delete.',
  input: z.object({
    ids: z.array(Id).min(1).max(500).describe('The subscriptions to change.'),
    change: Action,
  }),
  output: z.object({ action: z.string(), changed: z.int(), ids: z.array(z.string()) }),
  effect: 'destructive',
  exclude: {
    chat: 'Chat with no model changes one subscription at a time, from its card or a command; a change to many at once is asked for in words (the assistant, an agent) and previewed there as one card.',
  },
  summarize: (_input, output) => ({ count: output.changed }),
  summaryVariant: (input, output) => `${input.change.action}${output.changed === 1 ? '_one' : ''}`,
  async run(ctx, input) {
    const ids = [...new Set(input.ids)];
    // Read and locked (PostgreSQL) in id order, so two bulk changes of overlapping sets never deadlock.
    const rows = await chunked(
      [...ids].sort(),
      (part) =>
        ctx.tx.locked(
          visibleSubscriptions(ctx.tx.trx, ctx.actor, household(ctx).id)
            .whereIn('subscriptions.id', part)
            .orderBy('subscriptions.id')
            .select('subscriptions.*'),
          'subscriptions',
        ) as Promise<SubscriptionRow[]>,
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const missing = ids.find((id) => !byId.has(id));
    if (missing !== undefined) throw notFound('subscription', missing);

    const change = input.change;
    const ordered = ids
      .map((id) => byId.get(id))
      .filter((r): r is SubscriptionRow => r !== undefined);
    switch (change.action) {
      case 'set_category': {
        const categoryId =
          (await resolveNamed(
            ctx,
            'categories',
            change.category_id,
            change.category,
            'change.category',
          )) ?? null;
        for (const row of ordered)
          if (row.category_id !== categoryId)
            await ctx.tx.update('subscriptions', row.id, {
              category_id: categoryId,
              updated_at: nowIso(ctx),
            });
        break;
      }
      case 'set_payment_method': {
        const methodId =
          (await resolveNamed(
            ctx,
            'payment_methods',
            change.payment_method_id,
            change.payment_method,
            'change.payment_method',
          )) ?? null;
        for (const row of ordered)
          if (row.payment_method_id !== methodId)
            await ctx.tx.update('subscriptions', row.id, {
              payment_method_id: methodId,
              updated_at: nowIso(ctx),
            });
        break;
      }
      case 'set_tags':
      case 'add_tags': {
        const tagIds = await ensureTags(ctx, change.tags);
        for (const row of ordered) {
          let wanted = tagIds;
          if (change.action === 'add_tags') {
            const current = await ctx.tx
              .from<SubscriptionTagRow>('subscription_tags')
              .where({ subscription_id: row.id })
              .select('tag_id');
            wanted = [...new Set([...current.map((c) => c.tag_id), ...tagIds])];
          }
          await setTagLinks(ctx, row.id, wanted);
        }
        break;
      }
      case 'pause':
        for (const row of ordered) await pause(ctx, row);
        break;
      case 'resume':
        for (const row of ordered) await resume(ctx, row);
        break;
      case 'cancel':
        for (const row of ordered) await cancel(ctx, row);
        break;
      case 'delete':
        for (const row of ordered) await remove(ctx, row);
        break;
      default: {
        const unreachable: never = change;
        throw new Error(`unknown bulk action ${JSON.stringify(unreachable)}`);
      }
    }
    const touched = new Set(
      ctx.tx.changes
        .filter((c) => c.table === 'subscriptions' || c.table === 'subscription_tags')
        .map((c) =>
          c.table === 'subscriptions' ? c.id : String((c.after ?? c.before)?.subscription_id),
        ),
    );
    const changedIds = ordered.map((r) => r.id).filter((id) => touched.has(id));
    return { action: change.action, changed: changedIds.length, ids: changedIds };
  },
});
