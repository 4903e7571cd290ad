import { appButton } from '../appLinks.ts';
import { localDate } from '../../domain/dates.ts';
import type { Conversion } from '../../domain/schemas.ts';
import { cycleText, formatDate, money, relativeDay } from '../format.ts';
import { conversionLines } from './conversion.ts';
import type { SentRef } from '../types.ts';
import type { Turn } from '../turn.ts';
import { defineFeature } from '../feature.ts';

export const PAGE_SIZE = 10;
/** /upcoming offers the cards of its first few subscriptions. */
const UPCOMING_CARDS = 8;

type GroupBy = 'none' | 'category' | 'payment_method' | 'member' | 'tag';

interface ListOutput {
  total: number;
  offset: number;
  limit: number;
  items: Array<{
    id: string;
    name: string;
    amount: string;
    currency: string;
    cycle: { unit: string; every: number };
    next_charge_date: string | null;
    status: string;
    private: boolean;
  }>;
}

/**
 * `/list [text]`: the subscriptions a page at a time, with Prev/Next buttons that edit the same
 * message. In a group chat the speaker's private subscriptions are left out (others read it).
 */
export async function showList(
  turn: Turn,
  args: string,
  ref: SentRef | null,
  offset = 0,
): Promise<void> {
  const text = args.trim().slice(0, 100);
  const out = (
    await turn.withTyping(() =>
      turn.invoke('list_subscriptions', {
        limit: PAGE_SIZE,
        offset,
        sort: 'name',
        ...(text ? { text } : {}),
      }),
    )
  ).output as ListOutput;
  const reply = turn.reply();
  if (out.total === 0) {
    reply.say(text ? turn.t('chat.list.none_matching', { text }) : turn.t('chat.list.empty'));
    reply.say(turn.t('chat.help.add_example'));
    await turn.update(ref, reply);
    return;
  }
  // In a group the actor's audience is shared, so the core already left private subscriptions out.
  const shown = out.items;
  const first = out.offset + 1;
  const last = out.offset + out.items.length;
  const lines = shown.map((s) => {
    const next = s.next_charge_date
      ? turn.t('chat.list.next', { date: formatDate(s.next_charge_date, turn.locale) })
      : turn.t(`chat.status.${s.status}`);
    return `• ${s.name} — ${money(s.amount, s.currency, turn.locale)} · ${cycleText(s.cycle, turn.locale)} · ${next}`;
  });
  reply.setCard({
    title: `📋 ${turn.t('chat.list.title', { first, last, total: out.total })}`,
    lines,
  });
  const nav = [];
  if (out.offset > 0)
    nav.push(
      reply.action(`◀️ ${turn.t('chat.button.prev')}`, {
        t: 'subs_page',
        offset: Math.max(0, out.offset - PAGE_SIZE),
        text: text || null,
      }),
    );
  if (last < out.total)
    nav.push(
      reply.action(`${turn.t('chat.button.next')} ▶️`, {
        t: 'subs_page',
        offset: out.offset + PAGE_SIZE,
        text: text || null,
      }),
    );
  // Each one opens its card (what can be done with it).
  for (let i = 0; i < shown.length; i += 2)
    reply.row(
      ...shown
        .slice(i, i + 2)
        .map((s) => reply.action(`📄 ${s.name.slice(0, 30)}`, { t: 'sub_card', s: s.id })),
    );
  reply.row(...nav);
  await turn.update(ref, reply);
}

interface UpcomingOutput {
  currency: string;
  total: string;
  items: Array<{
    date: string;
    kind: 'charge' | 'trial_end' | 'notice_deadline';
    subscription_id: string;
    subscription_name: string;
    status: 'expected' | 'paid' | null;
    amount: string;
    currency: string;
  }>;
  conversion?: Conversion;
}

/** `/upcoming`: charges, trial ends and notice deadlines of the next 30 days, from `get_upcoming`. */
export async function showUpcoming(turn: Turn): Promise<void> {
  const [result, hh] = await turn.withTyping(() =>
    Promise.all([turn.invoke('get_upcoming', { days: 30 }), turn.invoke('get_household', {})]),
  );
  const today = localDate(turn.now, (hh.output as { time_zone: string }).time_zone);
  const out = result.output as UpcomingOutput;
  const reply = turn.reply();
  if (out.items.length === 0) {
    await turn.send(reply.say(turn.t('chat.upcoming.empty')));
    return;
  }
  const shown = out.items.slice(0, 25);
  const lines = shown.map((item) => {
    const when = `${formatDate(item.date, turn.locale)} (${relativeDay(item.date, today, turn.locale)})`;
    const what =
      item.kind === 'charge'
        ? `${item.subscription_name} ${money(item.amount, item.currency, turn.locale)}${item.status === 'paid' ? ` ✓ ${turn.t('chat.charge.paid')}` : ''}`
        : turn.t(`chat.upcoming.${item.kind}`, {
            name: item.subscription_name,
            amount: money(item.amount, item.currency, turn.locale),
          });
    return `• ${when} — ${what}`;
  });
  if (out.items.length > shown.length)
    lines.push(turn.t('chat.upcoming.more', { n: out.items.length - shown.length }));
  lines.push(
    '',
    turn.t('chat.upcoming.total', { amount: money(out.total, out.currency, turn.locale) }),
  );
  lines.push(...(await conversionLines(turn, out.conversion, out.currency)));
  reply.setCard({ title: `📅 ${turn.t('chat.upcoming.title')}`, lines });
  // The subscriptions coming up, each to its card, in date order, once each.
  const subs = [...new Map(shown.map((i) => [i.subscription_id, i.subscription_name])).entries()];
  const opens = subs
    .slice(0, UPCOMING_CARDS)
    .map(([id, name]) => reply.action(`📄 ${name.slice(0, 30)}`, { t: 'sub_card', s: id }));
  for (let i = 0; i < opens.length; i += 2) reply.row(...opens.slice(i, i + 2));
  // The same days on the app's calendar.
  const calendar = appButton(turn, reply, `📱 ${turn.t('chat.sub.button.open_app')}`, 'calendar');
  if (calendar) reply.row(calendar);
  await turn.send(reply);
}

interface TotalsOutput {
  currency: string;
  subscription_count: number;
  left_out_count: number;
  totals: { monthly?: string; yearly?: string };
  groups: Array<{ name: string; monthly?: string; subscription_count: number }>;
  members: Array<{ name: string; monthly?: string }>;
  conversion?: Conversion;
}

/**
 * "Active subscriptions: 2": every running subscription, with how many of them the figures above
 * hold when some had no exchange rate ("2, 1 of them in these totals"; the left-out line names them).
 */
function countLine(turn: Turn, out: TotalsOutput): string {
  const n = out.subscription_count + out.left_out_count;
  if (out.left_out_count === 0) return turn.t('chat.totals.count', { n });
  if (out.subscription_count === 0) return turn.t('chat.totals.count_none', { n });
  return turn.t('chat.totals.count_partial', { n, counted: out.subscription_count });
}

/** `/totals`: monthly and yearly cost now, each member's share, optionally by a grouping. */
export async function showTotals(turn: Turn, groupBy: GroupBy, ref: SentRef | null): Promise<void> {
  const out = (await turn.withTyping(() => turn.invoke('get_totals', { group_by: groupBy })))
    .output as TotalsOutput;
  const reply = turn.reply();
  const lines = [
    turn.t('chat.totals.monthly', {
      amount: money(out.totals.monthly ?? '0', out.currency, turn.locale),
    }),
    turn.t('chat.totals.yearly', {
      amount: money(out.totals.yearly ?? '0', out.currency, turn.locale),
    }),
    countLine(turn, out),
  ];
  if (groupBy !== 'none' && out.groups.length > 0) {
    lines.push('', turn.t(`chat.totals.by.${groupBy}`));
    for (const g of out.groups.slice(0, 15))
      lines.push(`• ${g.name}: ${money(g.monthly ?? '0', out.currency, turn.locale)}`);
  }
  if (out.members.length > 1 && !turn.inGroup) {
    lines.push('', turn.t('chat.totals.shares'));
    for (const m of out.members)
      lines.push(`• ${m.name}: ${money(m.monthly ?? '0', out.currency, turn.locale)}`);
  }
  // Totals now are monthly costs: so are the amounts left out.
  lines.push(...(await conversionLines(turn, out.conversion, out.currency, { monthly: true })));
  reply.setCard({ title: `💰 ${turn.t('chat.totals.title')}`, lines });
  const options: GroupBy[] = ['none', 'category', 'member', 'tag'];
  reply.row(
    ...options.map((g) =>
      reply.action(`${g === groupBy ? '✓ ' : ''}${turn.t(`chat.totals.button.${g}`)}`, {
        t: 'totals',
        group_by: g,
      }),
    ),
  );
  await turn.update(ref, reply);
}

/** What the household has: /list (paged), /upcoming and /totals (grouped by buttons). */
export const listsFeature = defineFeature({
  name: 'lists',
  commands: [
    {
      command: 'list',
      op: 'list_subscriptions',
      place: 'any',
      newcomer: false,
      run: (turn, args) => showList(turn, args, null),
    },
    { command: 'upcoming', op: 'get_upcoming', place: 'any', newcomer: false, run: showUpcoming },
    {
      command: 'totals',
      op: 'get_totals',
      place: 'any',
      newcomer: false,
      run: (turn) => showTotals(turn, 'none', null),
    },
  ],
  actions: {
    subs_page: (turn, action, ref) => showList(turn, action.text ?? '', ref, action.offset),
    totals: (turn, action, ref) => showTotals(turn, action.group_by, ref),
  },
});
