import { z } from 'zod';

import { formatAmount } from '../../domain/money.ts';
import { defineOp, type OpContext } from '../../kernel/op.ts';
import { type ChargeRow, priceChangesBySubscription } from '../../store/repos/charges.ts';
import {
  chunked,
  toView,
  viewColumns,
  visibleSubscriptions,
} from '../../store/repos/subscriptions.ts';
import type { Row } from '../../store/tracked.ts';
import { memberView } from '../household/_lib/views.ts';
import { household } from '../shared/context.ts';
import type { Subscription } from '../../domain/schemas.ts';
import { type DocSubscription, EXHALE_FORMAT, ExhaleDocument } from './_lib/document.ts';
import { subscriptionsCsv } from './_lib/subscriptionsCsv.ts';

const byText =
  <T>(key: (item: T) => string) =>
  (a: T, b: T): number =>
    key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;

/** The subscriptions the actor may see, as every surface sees them, by name then id (the same on every database). */
async function visibleViews(ctx: OpContext): Promise<Subscription[]> {
  const rows = await viewColumns(
    ctx.tx.trx,
    visibleSubscriptions(ctx.tx.trx, ctx.actor, household(ctx).id),
    ctx.today,
  );
  rows.sort(byText((r) => `${r.name.toLowerCase()}\u0000${r.id}`));
  return rows.map((row) => toView(row, ctx.today));
}

async function memberRows(ctx: OpContext): Promise<Row[]> {
  const rows = await ctx.tx.from('members').where({ household_id: household(ctx).id });
  return rows.sort(byText((r) => `${String(r.created_at)}\u0000${String(r.id)}`));
}

async function buildDocument(ctx: OpContext, views: Subscription[]): Promise<ExhaleDocument> {
  const hh = household(ctx);
  const ids = views.map((v) => v.id);
  const [members, categories, methods, tags, rates, changes, charges] = await Promise.all([
    memberRows(ctx),
    ctx.tx.from('categories').where({ household_id: hh.id }),
    ctx.tx.from('payment_methods').where({ household_id: hh.id }),
    ctx.tx.from('tags').where({ household_id: hh.id }),
    ctx.tx.from('fx_rates').where({ household_id: hh.id }),
    priceChangesBySubscription(ctx.tx.trx, ids),
    chunked(ids, (part) => ctx.tx.from<ChargeRow>('charges').whereIn('subscription_id', part)),
  ]);
  const byName = byText((r: Row) => String(r.name).toLowerCase());
  const subscriptions: DocSubscription[] = views.map((v) => ({
    id: v.id,
    member_id: v.member_id,
    name: v.name,
    vendor: v.vendor,
    amount: v.amount,
    currency: v.currency,
    cycle: v.cycle,
    first_charge_date: v.first_charge_date,
    status: v.status,
    trial_ends_on: v.trial_ends_on,
    paused_on: v.paused_on,
    cancelled_on: v.cancelled_on,
    contract_ends_on: v.contract_ends_on,
    notice_days: v.notice_days,
    category: v.category?.name ?? null,
    payment_method: v.payment_method?.name ?? null,
    tags: v.tags.map((tag) => tag.name),
    notes: v.notes,
    url: v.url,
    cancel_url: v.cancel_url,
    private: v.private,
    shares: v.shares,
    charges: charges
      .filter((c) => c.subscription_id === v.id)
      .sort(byText((c) => c.due_date))
      .map((c) => ({
        due_date: c.due_date,
        status: c.status,
        amount: c.amount_minor === null ? null : formatAmount(Number(c.amount_minor), c.currency),
        currency: c.currency,
        note: c.note,
        recorded_at: c.recorded_at,
      })),
    price_changes: (changes.get(v.id) ?? []).map((p) => ({
      effective_date: p.effective_date,
      old_amount: formatAmount(Number(p.old_amount_minor), p.currency),
      new_amount: formatAmount(Number(p.new_amount_minor), p.currency),
      currency: p.currency,
      created_at: p.created_at,
    })),
    created_at: v.created_at,
    updated_at: v.updated_at,
  }));
  return {
    format: EXHALE_FORMAT,
    exported_at: ctx.now.toISOString(),
    exported_by: ctx.actor.memberId,
    household: { name: hh.name, currency: hh.currency, time_zone: hh.time_zone, locale: hh.locale },
    members: members.map(memberView),
    categories: categories.sort(byName).map((c) => ({ name: String(c.name), color: c.color === null ? null : String(c.color) })),
    payment_methods: methods
      .sort(byName)
      .map((m) => ({ name: String(m.name), kind: String(m.kind), last4: m.last4 === null ? null : String(m.last4) })),
    tags: tags.sort(byName).map((tag) => ({ name: String(tag.name) })),
    subscriptions,
    exchange_rates: rates
      .filter((r) => r.source === 'manual')
      .sort(byText((r) => `${String(r.currency)}\u0000${String(r.date)}`))
      .map((r) => ({ currency: String(r.currency), date: String(r.date), per_eur: String(Number(r.per_eur)) })),
  };
}

export const exportData = defineOp({
  name: 'export_data',
  title: 'Export the household\'s data',
  description:
    'Exports everything the caller can see as one versioned JSON document (format "exhale/1"): the household, its members, categories, payment methods, tags, subscriptions with their tags, shares, recorded charges and price changes, and the exchange rates set by hand. Another member\'s private subscriptions are left out. import_data reads the document back. With format "csv", returns the subscriptions as a CSV table instead (one row each, amounts as decimal text). Returns a suggested file name, the media type and the content.',
  input: z.object({
    format: z.enum(['json', 'csv']).default('json').describe('"json" (default): the whole household; "csv": subscriptions only.'),
  }),
  output: z.object({
    format: z.enum(['json', 'csv']),
    filename: z.string().describe('A suggested file name, such as "exhale-2026-03-02.json".'),
    media_type: z.enum(['application/json', 'text/csv']),
    subscriptions: z.int().describe('How many subscriptions it holds.'),
    document: ExhaleDocument.nullable().describe('The export, for format "json"; null for CSV.'),
    csv: z.string().nullable().describe('The CSV text (RFC 4180, CRLF line ends), for format "csv"; null for JSON.'),
  }),
  effect: 'read',
  idempotent: true,
  exclude: {
    mcp: 'A bulk export of the whole household, notes included, is for a person to download, not for an agent to read.',
    assistant: 'A bulk export of the whole household, notes included, is for a person to download, not for the assistant to read.',
  },
  async run(ctx, input) {
    const views = await visibleViews(ctx);
    if (input.format === 'csv') {
      const names = new Map((await memberRows(ctx)).map((m) => [String(m.id), String(m.name)]));
      return {
        format: 'csv' as const,
        filename: `exhale-subscriptions-${ctx.today}.csv`,
        media_type: 'text/csv' as const,
        subscriptions: views.length,
        document: null,
        csv: subscriptionsCsv(views, names),
      };
    }
    return {
      format: 'json' as const,
      filename: `exhale-${ctx.today}.json`,
      media_type: 'application/json' as const,
      subscriptions: views.length,
      document: await buildDocument(ctx, views),
      csv: null,
    };
  },
});
