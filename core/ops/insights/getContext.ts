import { z } from 'zod';

import { formatAmount } from '../../domain/money.ts';
import { t } from '../../i18n/index.ts';
import { defineOp } from '../../kernel/op.ts';
import { type InsightRow, monthlyMinor } from '../../store/repos/subscriptions.ts';
import { household } from '../shared/context.ts';
import { Conversion, Id } from '../../domain/schemas.ts';
import { nextCharges } from '../shared/readModel.ts';
import { fullRows, RUNNING } from './_lib/load.ts';
import { collectSavings, FindingFacts } from './_lib/savings.ts';
import { Tally } from './_lib/tally.ts';
import { collectUpcoming } from './_lib/upcoming.ts';

/** Items listed in the briefing at most (its counts say how many there are): it must stay small. */
const MAX_LISTED = 100;
const MAX_UPCOMING = 30;
const MAX_ATTENTION = 20;
const UPCOMING_DAYS = 14;
const GLOSSARY = [
  'trial',
  'paused',
  'cancelled',
  'share',
  'notice',
  'price_change',
  'rate',
] as const;

export const getContext = defineOp({
  name: 'get_context',
  title: 'Household briefing',
  description:
    "The household's live briefing in one object: the household, its members, you, active and trial subscriptions, the cost now, the next 14 days, what needs attention, and how dates and series work. Call it first.",
  input: z.object({}),
  output: z.object({
    household: z.object({
      name: z.string(),
      currency: z.string(),
      time_zone: z.string(),
      today: z.string(),
      language: z.string(),
    }),
    you: z.object({ member_id: Id, name: z.string(), role: z.string() }).nullable(),
    members: z.array(z.object({ id: Id, name: z.string(), role: z.string() })),
    subscriptions: z.object({
      count: z.int(),
      listed: z.int(),
      items: z.array(
        z.object({
          id: Id,
          name: z.string(),
          amount: z.string(),
          currency: z.string(),
          cycle: z.string().describe('"1 month", "3 month", "1 year"…: every N units.'),
          next: z.string().nullable(),
          status: z.enum(['active', 'trial']),
        }),
      ),
    }),
    totals: z.object({ monthly: z.string(), yearly: z.string() }),
    upcoming: z.object({
      to: z.string(),
      total: z.string().describe('The charges due through `to`, in the household currency.'),
      count: z.int(),
      items: z.array(
        z.object({
          date: z.string(),
          kind: z.string(),
          id: Id,
          name: z.string(),
          amount: z.string(),
          currency: z.string(),
          converted: z.string().nullable(),
        }),
      ),
    }),
    attention: z.object({
      count: z.int(),
      items: z.array(
        z.object({
          kind: z.string(),
          ids: z.array(z.string()),
          note: z.string(),
          saving: z.string().nullable(),
          facts: FindingFacts.describe(
            "What the note says, as data (amounts in the subscription's currency, dates YYYY-MM-DD), for a screen that writes it in its reader's formats.",
          ),
        }),
      ),
    }),
    conversion: Conversion.describe(
      'Rates behind the totals; partial with the monthly amounts left out when a currency has no rate.',
    ),
    guide: z.object({
      dates: z.string(),
      series: z.string(),
      money: z.string(),
      glossary: z.record(z.string(), z.string()),
    }),
  }),
  effect: 'read',
  idempotent: true,
  async run(ctx) {
    const hh = household(ctx);
    const locale = ctx.actor.locale;
    const [memberRows, subs] = await Promise.all([
      ctx.tx
        .from('members')
        .where({ household_id: hh.id })
        .orderBy('created_at')
        .orderBy('id')
        .select('id', 'name', 'role') as Promise<Array<{ id: string; name: string; role: string }>>,
      fullRows(ctx, RUNNING),
    ]);
    const {
      to,
      items: upcoming,
      totalMinor,
      converter: upcomingRates,
    } = await collectUpcoming(ctx, subs, UPCOMING_DAYS);
    const attention = await collectSavings(ctx, subs, upcomingRates.fork(), MAX_ATTENTION);
    // The briefing's conversion facts are those of the cost now, like get_totals without dates.
    const converter = upcomingRates.fork();
    const tally = new Tally();
    const priced = new Map<string, boolean>(); // per currency: has a rate today (one lookup each)
    for (const sub of subs) {
      const monthly = monthlyMinor(sub);
      let known = priced.get(sub.currency);
      if (known === undefined) {
        known = converter.rate(sub.currency, ctx.today) !== null;
        priced.set(sub.currency, known);
      }
      if (!known) converter.omit(sub.id, sub.currency, monthly);
      else tally.add('', 'monthly', sub.currency, monthly);
    }
    const { figures } = tally.figures('', 'now', converter, ctx.today);
    // The first subscriptions by next charge, ties by name: the read model's order for the day,
    // kept to those of `subs`, with no series or sort per call.
    const { next: nextOf, byDateThenName } = await nextCharges(ctx);
    const mine = new Set(subs.map((s) => s.id));
    const listed: Array<{ sub: InsightRow; next: string | null }> = [];
    for (const sub of byDateThenName) {
      if (listed.length === MAX_LISTED) break;
      if (mine.has(sub.id)) listed.push({ sub, next: nextOf.get(sub.id) ?? null });
    }
    const me = memberRows.find((m) => m.id === ctx.actor.memberId);
    return {
      household: {
        name: hh.name,
        currency: hh.currency,
        time_zone: hh.time_zone,
        today: ctx.today,
        language: locale,
      },
      you: me ? { member_id: me.id, name: me.name, role: me.role } : null,
      members: memberRows,
      subscriptions: {
        count: subs.length,
        listed: listed.length,
        items: listed.map(({ sub, next }) => ({
          id: sub.id,
          name: sub.name,
          amount: formatAmount(sub.amount_minor, sub.currency),
          currency: sub.currency,
          cycle: `${sub.cycle_every} ${sub.cycle_unit}`,
          next,
          status: sub.status === 'trial' ? ('trial' as const) : ('active' as const),
        })),
      },
      totals: { monthly: figures.monthly ?? '0', yearly: figures.yearly ?? '0' },
      upcoming: {
        to,
        total: formatAmount(totalMinor, hh.currency),
        count: upcoming.length,
        items: upcoming.slice(0, MAX_UPCOMING).map((u) => ({
          date: u.date,
          kind: u.kind,
          id: u.subscription_id,
          name: u.subscription_name,
          amount: u.amount,
          currency: u.currency,
          converted: u.converted,
        })),
      },
      attention: {
        count: attention.count,
        items: attention.findings.map((f, i) => ({
          kind: f.kind,
          ids: f.subscription_ids,
          note: f.explanation,
          saving: f.estimated_yearly_saving,
          facts: attention.factsOf(i),
        })),
      },
      conversion: converter.facts(),
      guide: {
        dates: t(locale, 'insights.guide.dates', { today: ctx.today, time_zone: hh.time_zone }),
        series: t(locale, 'insights.guide.series'),
        money: t(locale, 'insights.guide.money', { currency: hh.currency }),
        glossary: Object.fromEntries(
          GLOSSARY.map((term) => [term, t(locale, `insights.glossary.${term}`)]),
        ),
      },
    };
  },
});
