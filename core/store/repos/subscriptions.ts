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
import { groupBy } from '../../domain/groupBy.ts';

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
export function nextChargeDate(row: SubscriptionRow, today: string): string | null {
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

/** Turns rows into the `Subscription` every surface sees, loading their names, tags and shares in batches. */
export async function subscriptionViews(
  db: Knex | Knex.Transaction,
  rows: SubscriptionRow[],
  today: string,
): Promise<Subscription[]> {
  if (rows.length === 0) return [];
  // Amount and monthly cost are today's (a price rise still to come is not yet the price).
  rows = await atTodaysPrice(db, rows, today);
  const ids = rows.map((r) => r.id);
  const householdId = rows[0]?.household_id ?? '';
  // Sequential on purpose: a PostgreSQL transaction is one connection and runs one query at a time.
  // Category and payment-method names come in one query, only for the ids these rows use.
  const categoryIds = [
    ...new Set(rows.map((r) => r.category_id).filter((x): x is string => x !== null)),
  ];
  const methodIds = [
    ...new Set(rows.map((r) => r.payment_method_id).filter((x): x is string => x !== null)),
  ];
  const names =
    categoryIds.length + methodIds.length === 0
      ? []
      : ((await db('categories')
          .where({ household_id: householdId })
          .whereIn('id', categoryIds.length > 0 ? categoryIds : [''])
          .select('id', 'name', db.raw("'c' as kind"))
          .unionAll((u) => {
            u.from('payment_methods')
              .where({ household_id: householdId })
              .whereIn('id', methodIds.length > 0 ? methodIds : [''])
              .select('id', 'name', db.raw("'p' as kind"));
          })) as Array<{ id: string; name: string; kind: string }>);
  const tagLinks = await chunked(
    ids,
    (part) =>
      db('subscription_tags')
        .join('tags', 'tags.id', 'subscription_tags.tag_id')
        .whereIn('subscription_tags.subscription_id', part)
        .orderBy('tags.name')
        .select(
          'subscription_tags.subscription_id as sid',
          'tags.id as id',
          'tags.name as name',
        ) as Promise<Array<{ sid: string; id: string; name: string }>>,
  );
  const shares = await chunked(
    ids,
    (part) =>
      db('subscription_shares')
        .whereIn('subscription_id', part)
        .orderBy('member_id')
        .select('subscription_id as sid', 'member_id', 'share_bp') as Promise<
        Array<{ sid: string; member_id: string; share_bp: number }>
      >,
  );
  const categoryNames = new Map(names.filter((n) => n.kind === 'c').map((c) => [c.id, c.name]));
  const methodNames = new Map(names.filter((n) => n.kind === 'p').map((m) => [m.id, m.name]));
  const tagsBySub = groupBy(tagLinks, (t) => t.sid);
  const sharesBySub = groupBy(shares, (s) => s.sid);
  return rows.map((row) => ({
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
    category: ref(row.category_id, categoryNames),
    payment_method: ref(row.payment_method_id, methodNames),
    tags: (tagsBySub.get(row.id) ?? []).map((t) => ({ id: t.id, name: t.name })),
    notes: row.notes,
    url: row.url,
    cancel_url: row.cancel_url,
    private: row.private === 1,
    member_id: row.member_id,
    shares: (sharesBySub.get(row.id) ?? []).map((s) => ({
      member_id: s.member_id,
      percent: formatPercent(s.share_bp),
    })),
    monthly_cost: formatAmount(Math.round(monthlyMinor(row)), row.currency),
    created_at: row.created_at,
    updated_at: row.updated_at,
  }));
}

function ref(id: string | null, names: Map<string, string>): { id: string; name: string } | null {
  if (id === null) return null;
  return { id, name: names.get(id) ?? '' };
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
