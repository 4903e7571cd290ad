import type { z } from 'zod';

import type { OpContext } from '../../../kernel/op.ts';
import { visibleSubscriptions } from '../../../store/repos/subscriptions.ts';
import type { Row } from '../../../store/tracked.ts';
import { household } from '../../shared/context.ts';
import type { Category, PaymentMethod, Tag } from '../../../domain/schemas.ts';
import { byName } from './names.ts';

export type CategoryView = z.input<typeof Category>;
export type PaymentMethodView = z.input<typeof PaymentMethod>;
export type TagView = z.input<typeof Tag>;

/** Subscriptions per category or payment method id, counting only those the actor may see. */
export async function countsBy(
  ctx: OpContext,
  column: 'category_id' | 'payment_method_id',
): Promise<Map<string, number>> {
  const rows = (await visibleSubscriptions(ctx.tx.trx, ctx.actor, household(ctx).id)
    .whereNotNull(`subscriptions.${column}`)
    .groupBy(`subscriptions.${column}`)
    .select(`subscriptions.${column} as id`)
    .count({ n: '*' })) as Array<{ id: string; n: number | string }>;
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

/** Subscriptions per tag id, counting only those the actor may see. */
export async function tagCounts(ctx: OpContext): Promise<Map<string, number>> {
  const rows = (await visibleSubscriptions(ctx.tx.trx, ctx.actor, household(ctx).id)
    .join('subscription_tags', 'subscription_tags.subscription_id', 'subscriptions.id')
    .groupBy('subscription_tags.tag_id')
    .select('subscription_tags.tag_id as id')
    .count({ n: '*' })) as Array<{ id: string; n: number | string }>;
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

export function categoryView(row: Row, counts: Map<string, number>): CategoryView {
  const id = String(row.id);
  return {
    id,
    name: String(row.name),
    color: row.color === null || row.color === undefined ? null : String(row.color),
    subscription_count: counts.get(id) ?? 0,
  };
}

export function paymentMethodView(row: Row, counts: Map<string, number>): PaymentMethodView {
  const id = String(row.id);
  return {
    id,
    name: String(row.name),
    kind: String(row.kind),
    last4: row.last4 === null || row.last4 === undefined ? null : String(row.last4),
    subscription_count: counts.get(id) ?? 0,
  };
}

export function tagView(row: Row, counts: Map<string, number>): TagView {
  const id = String(row.id);
  return { id, name: String(row.name), subscription_count: counts.get(id) ?? 0 };
}

/** One category as the caller sees it now (inside the op's transaction). */
export async function loadCategory(ctx: OpContext, row: Row): Promise<CategoryView> {
  return categoryView(row, await countsBy(ctx, 'category_id'));
}

export async function loadPaymentMethod(ctx: OpContext, row: Row): Promise<PaymentMethodView> {
  return paymentMethodView(row, await countsBy(ctx, 'payment_method_id'));
}

export async function loadTag(ctx: OpContext, row: Row): Promise<TagView> {
  return tagView(row, await tagCounts(ctx));
}

/** The household's rows of a table, ordered by name. */
export async function householdRows(
  ctx: OpContext,
  table: 'categories' | 'payment_methods' | 'tags',
): Promise<Row[]> {
  const rows = await ctx.tx.from(table).where({ household_id: household(ctx).id });
  return rows.map((r) => ({ ...r, id: String(r.id), name: String(r.name) })).sort(byName);
}
