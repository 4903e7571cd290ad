import type { Knex } from 'knex';

import {
  chargesPerMonth,
  type Cycle,
  type CycleUnit,
  nextOccurrence,
} from '../../domain/cycles.ts';
import { runsOn } from '../../domain/charges.ts';
import { formatAmount, formatPercent } from '../../domain/money.ts';
import type { Subscription } from '../../domain/schemas.ts';

/**
 * Who reads, as far as privacy goes (an `Actor` is one): a shared audience sees no private
 * subscription; the system without a member sees all; a member sees theirs and the public ones.
 */
export interface Viewer {
  kind: string;
  memberId: string | null;
  audience?: 'personal' | 'shared' | undefined;
}

/** A `subscriptions` row as stored. */
export interface SubscriptionRow {
  id: string;
  household_id: string;
  member_id: string;
  name: string;
  vendor: string | null;
  amount_minor: number;
  currency: string;
  cycle_unit: CycleUnit;
  cycle_every: number;
  first_charge_date: string;
  status: 'active' | 'trial' | 'paused' | 'cancelled';
  trial_ends_on: string | null;
  paused_on: string | null;
  cancelled_on: string | null;
  contract_ends_on: string | null;
  notice_days: number | null;
  category_id: string | null;
  payment_method_id: string | null;
  notes: string | null;
  url: string | null;
  cancel_url: string | null;
  private: number;
  created_at: string;
  updated_at: string;
}

/**
 * A subscription as the insight ops read it: 19 columns, not the table's 24 (notes, links and
 * timestamps left out), so V8 keeps each row a fast object with a fixed shape rather than a
 * dictionary, which every loop over 10,000 of them pays for.
 */
export type InsightRow = Omit<
  SubscriptionRow,
  'notes' | 'url' | 'cancel_url' | 'created_at' | 'updated_at'
>;

/**
 * Subscriptions of the actor's household that the actor may see: everything but another member's
 * private ones. Every read of subscriptions starts here, so privacy is enforced in one place.
 */
export function visibleSubscriptions(
  db: Knex | Knex.Transaction,
  actor: Viewer,
  householdId: string,
): Knex.QueryBuilder<SubscriptionRow, SubscriptionRow[]> {
  const query = db<SubscriptionRow, SubscriptionRow[]>('subscriptions').where(
    'subscriptions.household_id',
    householdId,
  );
  if (actor.audience === 'shared') return query.andWhere('subscriptions.private', 0);
  if (actor.kind === 'system' && actor.memberId === null) return query;
  return query.andWhere((q) => {
    q.where('subscriptions.private', 0).orWhere('subscriptions.member_id', actor.memberId ?? '');
  });
}

export function cycleOf(row: Pick<SubscriptionRow, 'cycle_unit' | 'cycle_every'>): Cycle {
  return { unit: row.cycle_unit, every: row.cycle_every };
}

/** The next charge date on or after `today`, or null when no charge is coming (cancelled, paused, ended). */
export function nextChargeDate(row: InsightRow, today: string): string | null {
  if (row.status === 'paused') return null;
  // A trial is free: the first charge is on or after its end, as the series says.
  const from = row.trial_ends_on !== null && row.trial_ends_on > today ? row.trial_ends_on : today;
  const next = nextOccurrence(row.first_charge_date, cycleOf(row), from);
  if (!runsOn(row.cancelled_on, next)) return null;
  if (row.status === 'cancelled' && row.cancelled_on === null) return null;
  return next;
}

/**
 * The status as it is today: a trial whose end has come is active (it is charged from that day),
 * whatever the row still says.
 */
export function statusOn(
  row: Pick<SubscriptionRow, 'status' | 'trial_ends_on'>,
  today: string,
): SubscriptionRow['status'] {
  return row.status === 'trial' && row.trial_ends_on !== null && row.trial_ends_on <= today
    ? 'active'
    : row.status;
}

/** Filters by status as it is today (see statusOn). */
export function whereStatusOn<Q extends Knex.QueryBuilder>(
  q: Q,
  statuses: ReadonlyArray<SubscriptionRow['status']>,
  today: string,
): Q {
  const stored = statuses.filter((s) => s !== 'active' && s !== 'trial');
  return q.where((w) => {
    if (stored.length > 0) w.orWhereIn('subscriptions.status', stored);
    if (statuses.includes('active'))
      w.orWhere('subscriptions.status', 'active').orWhere((t) =>
        t
          .where('subscriptions.status', 'trial')
          .andWhere('subscriptions.trial_ends_on', '<=', today),
      );
    if (statuses.includes('trial'))
      w.orWhere((t) =>
        t
          .where('subscriptions.status', 'trial')
          .andWhere((e) =>
            e
              .whereNull('subscriptions.trial_ends_on')
              .orWhere('subscriptions.trial_ends_on', '>', today),
          ),
      );
  }) as Q;
}

/** Average monthly cost in minor units (unrounded). */
export function monthlyMinor(
  row: Pick<SubscriptionRow, 'amount_minor' | 'cycle_unit' | 'cycle_every'>,
): number {
  return row.amount_minor * chargesPerMonth(cycleOf(row));
}

/**
 * A subscription's price today, in SQL (the `subscriptions` table in scope; one binding, today):
 * `amount_minor` holds its newest price, which may start later (a price rise announced for next
 * month); until then the price is the old price of its earliest change still to come.
 */
export const PRICE_NOW_SQL =
  'coalesce((select pc.old_amount_minor from price_changes pc where pc.subscription_id = subscriptions.id and pc.effective_date > ? order by pc.effective_date, pc.id limit 1), subscriptions.amount_minor)';

/** Today's price of the rows that have a price change still to come (see PRICE_NOW_SQL), by id. */
export async function pricesNow(
  db: Knex | Knex.Transaction,
  ids: readonly string[],
  today: string,
): Promise<Map<string, number>> {
  const rows = await chunked(
    [...ids],
    (part) =>
      db('price_changes')
        .whereIn('subscription_id', part)
        .where('effective_date', '>', today)
        .orderBy('effective_date')
        .orderBy('id')
        .select('subscription_id', 'old_amount_minor') as Promise<
        Array<{ subscription_id: string; old_amount_minor: number }>
      >,
  );
  const now = new Map<string, number>();
  for (const row of rows)
    if (!now.has(row.subscription_id)) now.set(row.subscription_id, Number(row.old_amount_minor));
  return now;
}

/** Rows with `amount_minor` as today's price (a price change still to come not yet applied). */
export async function atTodaysPrice<R extends Pick<SubscriptionRow, 'id' | 'amount_minor'>>(
  db: Knex | Knex.Transaction,
  rows: R[],
  today: string,
): Promise<R[]> {
  if (rows.length === 0) return rows;
  const now = await pricesNow(
    db,
    rows.map((r) => r.id),
    today,
  );
  if (now.size === 0) return rows;
  return rows.map((r) =>
    now.has(r.id) ? { ...r, amount_minor: now.get(r.id) ?? r.amount_minor } : r,
  );
}

/** A subscription row with what its view needs beside it, read in the same statement (viewColumns). */
export interface ViewRow extends SubscriptionRow {
  /** Today's price in minor units (PRICE_NOW_SQL). */
  view_price_minor: number | string;
  view_category_name: string | null;
  view_method_name: string | null;
  /** JSON text: `[[id, name], …]` by name. */
  view_tags: string | null;
  /** JSON text: `[[member_id, share_bp], …]` by member id. */
  view_shares: string | null;
}

function isPostgres(db: Knex | Knex.Transaction): boolean {
  // knex types its client as `any`; `dialect` is 'postgresql' for pg, 'sqlite3' for ours.
  return String(db.client.dialect) === 'postgresql';
}

/**
 * Adds to a query of `subscriptions` everything a view shows beside the row, so a view (or a page
 * of them) is one SQL statement: the category and payment-method names by join, today's price,
 * and the tags and shares aggregated to JSON text by correlated subqueries (ordered inside the
 * aggregate, the same on both databases).
 */
export function viewColumns(
  db: Knex | Knex.Transaction,
  query: Knex.QueryBuilder<SubscriptionRow, SubscriptionRow[]>,
  today: string,
): Knex.QueryBuilder<ViewRow, ViewRow[]> {
  const pg = isPostgres(db);
  const tags = pg
    ? "(select coalesce(json_agg(json_build_array(t.id, t.name) order by t.name, t.id), '[]')::text from subscription_tags st join tags t on t.id = st.tag_id where st.subscription_id = subscriptions.id)"
    : '(select json_group_array(json_array(t.id, t.name) order by t.name, t.id) from subscription_tags st join tags t on t.id = st.tag_id where st.subscription_id = subscriptions.id)';
  const shares = pg
    ? "(select coalesce(json_agg(json_build_array(ss.member_id, ss.share_bp) order by ss.member_id), '[]')::text from subscription_shares ss where ss.subscription_id = subscriptions.id)"
    : '(select json_group_array(json_array(ss.member_id, ss.share_bp) order by ss.member_id) from subscription_shares ss where ss.subscription_id = subscriptions.id)';
  return query
    .leftJoin('categories as view_c', (j) =>
      j
        .on('view_c.id', 'subscriptions.category_id')
        .andOn('view_c.household_id', 'subscriptions.household_id'),
    )
    .leftJoin('payment_methods as view_p', (j) =>
      j
        .on('view_p.id', 'subscriptions.payment_method_id')
        .andOn('view_p.household_id', 'subscriptions.household_id'),
    )
    .select(
      'subscriptions.*',
      'view_c.name as view_category_name',
      'view_p.name as view_method_name',
      db.raw(`${PRICE_NOW_SQL} as view_price_minor`, [today]),
      db.raw(`${tags} as view_tags`),
      db.raw(`${shares} as view_shares`),
    ) as unknown as Knex.QueryBuilder<ViewRow, ViewRow[]>; // the added columns are ViewRow's
}

/** JSON text of an aggregate as pairs (`[]` when there is none). */
function pairs(text: string | null): Array<[string, string | number]> {
  return text ? (JSON.parse(text) as Array<[string, string | number]>) : [];
}

/** The `Subscription` every surface sees, from a row read with viewColumns. */
export function toView(view: ViewRow, today: string): Subscription {
  // Amount and monthly cost are today's (a price rise still to come is not yet the price).
  const row = { ...view, amount_minor: Number(view.view_price_minor) };
  return {
    id: row.id,
    name: row.name,
    vendor: row.vendor,
    amount: formatAmount(row.amount_minor, row.currency),
    currency: row.currency,
    cycle: cycleOf(row),
    first_charge_date: row.first_charge_date,
    next_charge_date: nextChargeDate(row, today),
    status: statusOn(row, today),
    trial_ends_on: row.trial_ends_on,
    paused_on: row.paused_on,
    cancelled_on: row.cancelled_on,
    contract_ends_on: row.contract_ends_on,
    notice_days: row.notice_days,
    category:
      row.category_id === null ? null : { id: row.category_id, name: row.view_category_name ?? '' },
    payment_method:
      row.payment_method_id === null
        ? null
        : { id: row.payment_method_id, name: row.view_method_name ?? '' },
    tags: pairs(row.view_tags).map(([id, name]) => ({ id, name: String(name) })),
    notes: row.notes,
    url: row.url,
    cancel_url: row.cancel_url,
    private: Number(row.private) === 1,
    member_id: row.member_id,
    shares: pairs(row.view_shares).map(([member_id, bp]) => ({
      member_id,
      percent: formatPercent(Number(bp)),
    })),
    monthly_cost: formatAmount(Math.round(monthlyMinor(row)), row.currency),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * The visible subscriptions with these ids as every surface sees them, in the ids' order: one
 * statement per 500 ids (SQLite's bound-parameter limit).
 */
export async function viewsByIds(
  db: Knex | Knex.Transaction,
  viewer: Viewer,
  householdId: string,
  ids: readonly string[],
  today: string,
): Promise<Subscription[]> {
  if (ids.length === 0) return [];
  const rows = await chunked([...ids], (part) =>
    viewColumns(db, visibleSubscriptions(db, viewer, householdId), today).whereIn(
      'subscriptions.id',
      part,
    ),
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids
    .map((id) => byId.get(id))
    .filter((r): r is ViewRow => r !== undefined)
    .map((r) => toView(r, today));
}

/**
 * Rows already read (and already filtered for privacy) as views, in their order: one statement
 * that reads them again with everything their views need.
 */
export async function subscriptionViews(
  db: Knex | Knex.Transaction,
  rows: readonly Pick<SubscriptionRow, 'id' | 'household_id'>[],
  today: string,
): Promise<Subscription[]> {
  const householdId = rows[0]?.household_id ?? '';
  return viewsByIds(
    db,
    { kind: 'system', memberId: null },
    householdId,
    rows.map((r) => r.id),
    today,
  );
}

/** Runs a whereIn query in chunks that stay under SQLite's bound-parameter limit. */
export async function chunked<T>(
  ids: string[],
  query: (part: string[]) => Promise<T[]>,
  size = 500,
): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += size) out.push(...(await query(ids.slice(i, i + size))));
  return out;
}
