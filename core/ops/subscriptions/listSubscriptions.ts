import { z } from 'zod';

import { matchesText } from '../../domain/text.ts';
import { defineOp } from '../../kernel/op.ts';
import {
  nextChargeDate,
  PRICE_NOW_SQL,
  type SubscriptionRow,
  toView,
  viewColumns,
  visibleSubscriptions,
  whereStatusOn,
} from '../../store/repos/subscriptions.ts';
import { household, requireOwned } from '../shared/context.ts';
import { monthlyCostOrder } from '../shared/rates.ts';
import { currenciesOf, nameCollator, pageFromModel } from './_lib/listOrder.ts';
import { viewsOf } from './_lib/view.ts';
import { Id, IsoDate, Paging, Subscription, SubscriptionStatus } from '../../domain/schemas.ts';

const SORT_COLUMNS = [
  'id',
  'name',
  'created_at',
  'amount_minor',
  'currency',
  'cycle_unit',
  'cycle_every',
  'first_charge_date',
  'status',
  'trial_ends_on',
  'paused_on',
  'cancelled_on',
] as const;

/** The columns free text is searched in. */
const TEXT_COLUMNS = ['vendor', 'notes'] as const;

const SORTS = ['name', 'next_charge_date', 'monthly_cost', 'created_at'] as const;

export const listSubscriptions = defineOp({
  name: 'list_subscriptions',
  title: 'List subscriptions',
  description:
    'Lists the subscriptions the caller can see, a page at a time, filtered (the filters combine) and sorted.',
  input: z.object({
    status: z
      .union([SubscriptionStatus, z.array(SubscriptionStatus)])
      .optional()
      .describe('Only this status or these statuses; default: all.'),
    category_id: Id.optional(),
    tag_id: Id.optional(),
    payment_method_id: Id.optional(),
    member_id: Id.optional().describe('Only subscriptions of this member.'),
    text: z
      .string()
      .trim()
      .min(1)
      // Longer than the longest name (120), so a whole name can be looked for.
      .max(200)
      .optional()
      .describe('Text in name, vendor or notes, ignoring case and accents.'),
    due_from: IsoDate.optional().describe('Next charge on or after this date.'),
    due_to: IsoDate.optional().describe('Next charge on or before this date.'),
    sort: z
      .enum(SORTS)
      .default('name')
      .describe('monthly_cost: converted to the household currency.'),
    order: z.enum(['asc', 'desc']).default('asc'),
    ...Paging,
  }),
  output: z.object({
    total: z.int(),
    offset: z.int(),
    limit: z.int(),
    items: z.array(Subscription),
  }),
  effect: 'read',
  idempotent: true,
  async run(ctx, input) {
    // A filter on an unknown id is a mistake to report, not an empty list.
    if (input.category_id) await requireOwned(ctx, 'categories', 'category', input.category_id);
    if (input.payment_method_id)
      await requireOwned(ctx, 'payment_methods', 'payment_method', input.payment_method_id);
    if (input.tag_id) await requireOwned(ctx, 'tags', 'tag', input.tag_id);
    if (input.member_id) await requireOwned(ctx, 'members', 'member', input.member_id);
    const statuses = typeof input.status === 'string' ? [input.status] : input.status;
    // Every sort but creation order, without free text (notes are not in the read model): the
    // page's ids come from the household's read model (each order built once per change and day),
    // then the page's views, kept there too.
    if (input.sort !== 'created_at' && !input.text) {
      const tagged = input.tag_id
        ? new Set(
            (
              (await ctx.tx
                .from('subscription_tags')
                .where('tag_id', input.tag_id)
                .select('subscription_id')) as Array<{ subscription_id: string }>
            ).map((r) => r.subscription_id),
          )
        : undefined;
      const page = await pageFromModel(ctx, { ...input, sort: input.sort, statuses, tagged });
      return {
        total: page.total,
        offset: input.offset,
        limit: input.limit,
        items: await viewsOf(ctx, page.ids),
      };
    }
    const q = visibleSubscriptions(ctx.tx.trx, ctx.actor, household(ctx).id);
    if (statuses) whereStatusOn(q, statuses, ctx.today);
    if (input.category_id) q.where('subscriptions.category_id', input.category_id);
    if (input.payment_method_id)
      q.where('subscriptions.payment_method_id', input.payment_method_id);
    if (input.member_id) q.where('subscriptions.member_id', input.member_id);
    if (input.tag_id) {
      q.whereIn(
        'subscriptions.id',
        ctx.tx.from('subscription_tags').where('tag_id', input.tag_id).select('subscription_id'),
      );
    }
    // Free text (ignoring case and accents, see searchKey) and names (sorted as people read them:
    // "Ñandú" after "Netflix" in Spanish, "iCloud" among the I's) are handled here, the same on
    // every database; only a page in creation order with no text is cut by the database itself.
    const text = input.text;
    const inDatabase = input.sort === 'created_at' && !text && !input.due_from && !input.due_to;
    let items: Subscription[];
    let total: number;
    if (inDatabase) {
      const [{ count } = { count: 0 }] = (await q.clone().count({ count: '*' })) as Array<{
        count: number | string;
      }>;
      total = Number(count);
      items = (
        await viewColumns(ctx.tx.trx, q, ctx.today)
          .orderBy('subscriptions.created_at', input.order)
          .orderBy('subscriptions.id')
          .limit(input.limit)
          .offset(input.offset)
      ).map((row) => toView(row, ctx.today));
    } else {
      // Only what the sort, the filters and the next charge need (by name, the names alone); the
      // page's full rows are read after.
      const needsNext = input.sort === 'next_charge_date' || input.due_from || input.due_to;
      const base = needsNext || input.sort !== 'name' ? SORT_COLUMNS : (['id', 'name'] as const);
      const columns = text ? [...base, ...TEXT_COLUMNS] : base;
      // Partial rows, read as full ones: only the selected columns are used before the page's
      // full rows replace them (knex cannot type a computed column list).
      // By monthly cost, `amount_minor` is read as today's price (a price rise still to come is
      // not yet the price), in the same statement.
      const all = (await q.select(
        columns.map((c) =>
          c === 'amount_minor' && input.sort === 'monthly_cost'
            ? ctx.tx.trx.raw(`${PRICE_NOW_SQL} as amount_minor`, [ctx.today])
            : `subscriptions.${c}`,
        ),
      )) as SubscriptionRow[];
      const keyed = all
        .filter((row) => !text || matchesText(text, [row.name, row.vendor, row.notes]))
        .map((row) => ({ row, next: needsNext ? nextChargeDate(row, ctx.today) : null }))
        .filter(
          ({ next }) =>
            (!input.due_from && !input.due_to) ||
            (next !== null &&
              (!input.due_from || next >= input.due_from) &&
              (!input.due_to || next <= input.due_to)),
        );
      const sign = input.order === 'asc' ? 1 : -1;
      const names = nameCollator(household(ctx).locale);
      const costs =
        input.sort === 'monthly_cost'
          ? (await monthlyCostOrder(ctx, currenciesOf(keyed.map((k) => k.row)))).compare
          : null;
      keyed.sort(
        (a, b) => sign * compare(a, b, input.sort, names, costs) || (a.row.id < b.row.id ? -1 : 1),
      );
      total = keyed.length;
      const pageIds = keyed.slice(input.offset, input.offset + input.limit).map((k) => k.row.id);
      // The page, whole, in one statement (or from the read model).
      items = await viewsOf(ctx, pageIds);
    }
    return { total, offset: input.offset, limit: input.limit, items };
  },
});

function compare(
  a: { row: SubscriptionRow; next: string | null },
  b: { row: SubscriptionRow; next: string | null },
  sort: (typeof SORTS)[number],
  names: Intl.Collator,
  /** By monthly cost: in the household currency (monthlyCostOrder). */
  costs: ((a: SubscriptionRow, b: SubscriptionRow) => number) | null,
): number {
  switch (sort) {
    case 'name':
      return names.compare(a.row.name, b.row.name);
    case 'created_at':
      return a.row.created_at < b.row.created_at ? -1 : a.row.created_at > b.row.created_at ? 1 : 0;
    case 'monthly_cost':
      return costs ? costs(a.row, b.row) : 0;
    case 'next_charge_date':
      return (a.next ?? '9999') < (b.next ?? '9999')
        ? -1
        : (a.next ?? '9999') > (b.next ?? '9999')
          ? 1
          : 0;
    default: {
      const unreachable: never = sort;
      return unreachable;
    }
  }
}
