import { addDays, localDate, zonedInstant } from '../domain/dates.ts';
import { runsOn } from '../domain/charges.ts';
import { formatAmount } from '../domain/money.ts';
import type { Database } from '../store/connection.ts';
import { chargesBetween, type PriceChangeRow } from '../store/repos/charges.ts';
import { chunked, type SubscriptionRow } from '../store/repos/subscriptions.ts';
import type { DueReminder, Reminder, ReminderKind } from './types.ts';
import { LEASE_MS } from './log.ts';

interface HouseholdRow {
  id: string;
  time_zone: string;
}

interface MemberRow {
  id: string;
  household_id: string;
  language: string;
  reminder_offsets: string;
  reminder_time: string;
  created_at: string;
}

interface MemberPlan {
  id: string;
  language: string;
  offsets: number[];
  time: string;
  createdAt: string;
}

/** An event a reminder can be about, before it is multiplied by members and offsets. */
interface EventInfo {
  kind: ReminderKind;
  sub: SubscriptionRow;
  /** The id the key is built from: the subscription, or the price change. */
  subjectId: string;
  eventDate: string;
  amount: string | null;
  oldAmount: string | null;
  currency: string;
  contractEnds: string | null;
  /** When the thing was recorded: reminders that fell due before it are not sent. */
  since: string;
}

function parseOffsets(text: string): number[] {
  try {
    const value = JSON.parse(text) as unknown;
    return Array.isArray(value)
      ? value.filter((v): v is number => Number.isInteger(v) && v >= 0 && v <= 60)
      : [];
  } catch {
    return [];
  }
}

/**
 * Every reminder due at `now` and not yet sent, across all households. A reminder is due once its
 * local time has come (`reminder_time` in the household's time zone, so DST is honoured) and while
 * its event is still today or ahead, so reminders missed during downtime are caught up. When
 * several offsets of one event are due together, only the nearest is sent; the others are
 * recorded as superseded.
 */
export async function findDueReminders(db: Database, now: Date): Promise<DueReminder[]> {
  const households = (await db.knex('households').select('id', 'time_zone')) as HouseholdRow[];
  const out: DueReminder[] = [];
  for (const hh of households) out.push(...(await dueInHousehold(db, hh, now)));
  if (out.length === 0) return out;
  const settled = await settledKeys(
    db,
    out.flatMap((d) => [d.reminder.key, ...d.supersedes.map((s) => s.key)]),
    now,
  );
  return out
    .filter((d) => !settled.has(d.reminder.key))
    .map((d) => ({
      reminder: d.reminder,
      supersedes: d.supersedes.filter((s) => !settled.has(s.key)),
    }));
}

/** Keys already sent, superseded or given up, or claimed by a process whose lease still runs. */
async function settledKeys(db: Database, keys: string[], now: Date): Promise<Set<string>> {
  const leaseStart = new Date(now.getTime() - LEASE_MS).toISOString();
  const rows = await chunked(
    keys,
    (part) =>
      db.knex('reminder_log').whereIn('id', part).select('id', 'status', 'claimed_at') as Promise<
        Array<{ id: string; status: string; claimed_at: string | null }>
      >,
  );
  return new Set(
    rows
      .filter(
        (r) => r.status !== 'claimed' || (r.claimed_at !== null && r.claimed_at >= leaseStart),
      )
      .map((r) => r.id),
  );
}

async function dueInHousehold(db: Database, hh: HouseholdRow, now: Date): Promise<DueReminder[]> {
  const members = ((await db.knex('members').where({ household_id: hh.id })) as MemberRow[])
    .map((m): MemberPlan => ({
      id: m.id,
      language: m.language,
      offsets: parseOffsets(m.reminder_offsets),
      time: m.reminder_time,
      createdAt: m.created_at,
    }))
    .filter((m) => m.offsets.length > 0);
  if (members.length === 0) return [];
  const today = localDate(now, hh.time_zone);
  const horizon = addDays(today, Math.max(...members.flatMap((m) => m.offsets)));
  const subs = (await db
    .knex('subscriptions')
    .where({ household_id: hh.id })
    // A cancellation effective later still has charges due until the day before (runsOn).
    .andWhere((q) => {
      q.whereNot('status', 'cancelled').orWhere('cancelled_on', '>', today);
    })) as SubscriptionRow[];
  if (subs.length === 0) return [];
  const events = await eventsBetween(db, subs, today, horizon);
  const recipients = await recipientsOf(db, subs);
  const byMember = new Map(members.map((m) => [m.id, m]));
  const nowIso = now.toISOString();
  const due: DueReminder[] = [];
  for (const event of events) {
    for (const memberId of recipients.get(event.sub.id) ?? []) {
      const member = byMember.get(memberId);
      if (!member) continue;
      const ready: Reminder[] = [];
      for (const offset of member.offsets) {
        const fireAt = zonedInstant(
          addDays(event.eventDate, -offset),
          member.time,
          hh.time_zone,
        ).toISOString();
        if (fireAt > nowIso || fireAt < event.since || fireAt < member.createdAt) continue;
        ready.push(reminderOf(hh, member, event, offset, fireAt, today));
      }
      if (ready.length === 0) continue;
      ready.sort((a, b) => a.offsetDays - b.offsetDays);
      const [nearest, ...older] = ready;
      if (nearest) due.push({ reminder: nearest, supersedes: older });
    }
  }
  return due;
}

function reminderOf(
  hh: HouseholdRow,
  member: MemberPlan,
  event: EventInfo,
  offset: number,
  fireAt: string,
  today: string,
): Reminder {
  return {
    key: `${event.kind}:${event.subjectId}:${event.eventDate}:${offset}:${member.id}`,
    kind: event.kind,
    householdId: hh.id,
    memberId: member.id,
    language: member.language,
    subscriptionId: event.sub.id,
    subscriptionName: event.sub.name,
    eventDate: event.eventDate,
    offsetDays: offset,
    fireAt,
    today,
    amount: event.amount,
    oldAmount: event.oldAmount,
    currency: event.currency,
    cancelUrl: event.sub.cancel_url,
    contractEnds: event.contractEnds,
  };
}

/** Charges not yet recorded, trial ends, notice deadlines and price increases in [today, horizon]. */
async function eventsBetween(
  db: Database,
  subs: SubscriptionRow[],
  today: string,
  horizon: string,
): Promise<EventInfo[]> {
  const byId = new Map(subs.map((s) => [s.id, s]));
  const events: EventInfo[] = [];
  for (const charge of await chargesBetween(db.knex, subs, today, horizon)) {
    const sub = byId.get(charge.subscription_id);
    if (!sub || charge.status !== 'expected') continue;
    events.push({
      kind: 'charge',
      sub,
      subjectId: sub.id,
      eventDate: charge.due_date,
      amount: charge.amount,
      oldAmount: null,
      currency: charge.currency,
      contractEnds: null,
      since: sub.created_at,
    });
  }
  for (const sub of subs) {
    const base = {
      sub,
      subjectId: sub.id,
      oldAmount: null,
      currency: sub.currency,
      since: sub.created_at,
    };
    if (
      sub.status === 'trial' &&
      sub.trial_ends_on !== null &&
      sub.trial_ends_on >= today &&
      sub.trial_ends_on <= horizon
    ) {
      events.push({
        ...base,
        kind: 'trial_end',
        eventDate: sub.trial_ends_on,
        amount: formatAmount(sub.amount_minor, sub.currency),
        contractEnds: null,
      });
    }
    // A cancelled subscription has no notice left to give.
    if (sub.status !== 'cancelled' && sub.contract_ends_on !== null) {
      const deadline = addDays(sub.contract_ends_on, -(sub.notice_days ?? 0));
      if (deadline >= today && deadline <= horizon)
        events.push({
          ...base,
          kind: 'notice',
          eventDate: deadline,
          amount: null,
          contractEnds: sub.contract_ends_on,
        });
    }
  }
  const ids = subs.map((s) => s.id);
  const increases = await chunked(
    ids,
    (part) =>
      db
        .knex('price_changes')
        .whereIn('subscription_id', part)
        .whereBetween('effective_date', [today, horizon])
        .whereRaw('new_amount_minor > old_amount_minor') as Promise<PriceChangeRow[]>,
  );
  for (const change of increases) {
    const sub = byId.get(change.subscription_id);
    // No increase to warn of once the subscription has stopped by then.
    if (!sub || sub.status === 'paused' || !runsOn(sub.cancelled_on, change.effective_date))
      continue;
    events.push({
      kind: 'price_increase',
      sub,
      subjectId: change.id,
      eventDate: change.effective_date,
      amount: formatAmount(change.new_amount_minor, change.currency),
      oldAmount: formatAmount(change.old_amount_minor, change.currency),
      currency: change.currency,
      contractEnds: null,
      since: change.created_at,
    });
  }
  return events;
}

/**
 * Who hears about a subscription: its member, and the members who share its cost. A private
 * subscription is only its member's.
 */
async function recipientsOf(db: Database, subs: SubscriptionRow[]): Promise<Map<string, string[]>> {
  const shares = await chunked(
    subs.map((s) => s.id),
    (part) =>
      db
        .knex('subscription_shares')
        .whereIn('subscription_id', part)
        .select('subscription_id', 'member_id') as Promise<
        Array<{ subscription_id: string; member_id: string }>
      >,
  );
  const map = new Map<string, string[]>(subs.map((s) => [s.id, [s.member_id]]));
  const privateIds = new Set(subs.filter((s) => s.private === 1).map((s) => s.id));
  for (const share of shares) {
    if (privateIds.has(share.subscription_id)) continue;
    const list = map.get(share.subscription_id);
    if (list && !list.includes(share.member_id)) list.push(share.member_id);
  }
  return map;
}
