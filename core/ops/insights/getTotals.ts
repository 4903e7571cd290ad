import { z } from 'zod';

import { localeOrder } from '../../domain/text.ts';
import { daysBetween } from '../../domain/dates.ts';
import { parseAmount } from '../../domain/money.ts';
import { t } from '../../i18n/index.ts';
import { defineOp, type OpContext } from '../../kernel/op.ts';
import { chargesBetween } from '../../store/repos/charges.ts';
import { monthlyMinor } from '../../store/repos/subscriptions.ts';
import { fieldError } from '../shared/context.ts';
import { Conversion, Id, IsoDate } from '../../domain/schemas.ts';
import { Converter } from './_lib/convert.ts';
import {
  type CostRow,
  type CostSum,
  fullRows,
  groupKeysOf,
  namesOf,
  runningCostRowsIn,
  runningCostSums,
  runningShareSums,
  type ShareRow,
  sharesBySubscription,
  tagsBySubscription,
} from './_lib/load.ts';
import { Figures, Tally } from './_lib/tally.ts';

export const GROUP_BYS = ['none', 'category', 'payment_method', 'member', 'tag'] as const;
type GroupBy = (typeof GROUP_BYS)[number];

const MAX_RANGE_DAYS = 1100;

const Group = Figures.extend({
  id: z
    .string()
    .nullable()
    .describe('The category, payment method, member or tag id; null for "none of them".'),
  name: z.string(),
  subscription_count: z.int(),
});

const MemberShare = Figures.extend({
  member_id: Id,
  name: z.string(),
  subscription_count: z.int(),
});

export const getTotals = defineOp({
  name: 'get_totals',
  title: 'Totals',
  description:
    "What the household spends, in its currency: the monthly and yearly cost now, or with from and to the charges of a period; optionally grouped, always with each member's share. `conversion` names the rates used and what had none.",
  input: z.object({
    from: IsoDate.optional().describe(
      'Start of the period (inclusive); give with `to`. Leave both out for costs now.',
    ),
    to: IsoDate.optional().describe('End of the period (inclusive).'),
    group_by: z
      .enum(GROUP_BYS)
      .default('none')
      .describe('How to break the total down; "none" gives no groups.'),
  }),
  output: z.object({
    currency: z.string().describe('The household currency every amount here is in.'),
    basis: z.enum(['now', 'period']),
    date: z.string().describe('Today for costs now; the rates of this day serve them.'),
    from: z.string().nullable(),
    to: z.string().nullable(),
    subscription_count: z.int().describe('Subscriptions in these figures.'),
    left_out_count: z
      .int()
      .describe('Subscriptions in no figure for want of a rate (named in conversion.left_out).'),
    totals: Figures,
    groups: z.array(Group).describe('Largest first; empty when group_by is "none".'),
    members: z.array(MemberShare).describe("Each member's share of the cost, largest first."),
    conversion: Conversion,
  }),
  effect: 'read',
  idempotent: true,
  async run(ctx, input) {
    if ((input.from === undefined) !== (input.to === undefined))
      throw fieldError(ctx, input.from ? 'to' : 'from', 'errors.input.totals_range_pair');
    if (input.from !== undefined && input.to !== undefined) {
      if (input.to < input.from) throw fieldError(ctx, 'to', 'errors.input.range_order');
      if (daysBetween(input.from, input.to) > MAX_RANGE_DAYS)
        throw fieldError(ctx, 'to', 'errors.input.range_too_long', { days: MAX_RANGE_DAYS });
    }
    const period =
      input.from !== undefined && input.to !== undefined
        ? { from: input.from, to: input.to }
        : null;
    const [groupNames, memberNames] = await Promise.all([
      groupNamesFor(ctx, input.group_by),
      namesOf(ctx, 'members'),
    ]);
    const totals = new Tally();
    const groups = new Tally();
    const members = new Tally();
    const { converter, leftOutCount } = period
      ? await tallyPeriod(ctx, input.group_by, period.from, period.to, { totals, groups, members })
      : await tallyNow(ctx, input.group_by, { totals, groups, members });

    const basis: 'now' | 'period' = period ? 'period' : 'now';
    const date = ctx.today;
    const groupList = groups
      .keys()
      .map((key) => {
        const { figures, main } = groups.figures(key, basis, converter, date);
        const id = key === '' ? null : key;
        return {
          main,
          group: {
            id,
            name: groupName(ctx, input.group_by, id, groupNames),
            subscription_count: groups.count(key),
            ...figures,
          },
        };
      })
      .sort((a, b) => b.main - a.main || localeOrder(a.group.name, b.group.name))
      .map((g) => g.group);
    const memberList = members
      .keys()
      .map((key) => {
        const { figures, main } = members.figures(key, basis, converter, date);
        return {
          main,
          share: {
            member_id: key,
            name: memberNames.get(key) ?? '',
            subscription_count: members.count(key),
            ...figures,
          },
        };
      })
      .sort((a, b) => b.main - a.main || localeOrder(a.share.name, b.share.name))
      .map((m) => m.share);
    return {
      currency: converter.target,
      basis,
      date,
      from: period?.from ?? null,
      to: period?.to ?? null,
      subscription_count: totals.count(''),
      left_out_count: leftOutCount,
      totals: totals.figures('', basis, converter, date).figures,
      groups: groupList,
      members: memberList,
      conversion: converter.facts(),
    };
  },
});

interface Tallies {
  totals: Tally;
  groups: Tally;
  members: Tally;
}

/** The converter that served a tally, and how many subscriptions it could put in no figure at all. */
interface Tallied {
  converter: Converter;
  leftOutCount: number;
}

/**
 * The cost now: prices summed in the database per group, currency and cycle (a handful of rows
 * even for 10,000 subscriptions), turned into monthly averages; currencies without a rate today
 * are left out and their subscriptions listed with their monthly amounts.
 */
async function tallyNow(ctx: OpContext, by: GroupBy, t: Tallies): Promise<Tallied> {
  const [sums, groupSums, shareSums] = await Promise.all([
    runningCostSums(ctx, 'none'),
    by === 'none' ? Promise.resolve<readonly CostSum[]>([]) : runningCostSums(ctx, by),
    runningShareSums(ctx),
  ]);
  const converter = await Converter.load(
    ctx,
    sums.map((s) => s.currency),
    ctx.today,
    ctx.today,
  );
  const missing = [...new Set(sums.map((s) => s.currency))].filter(
    (c) => converter.rate(c, ctx.today) === null,
  );
  // A subscription has one currency: one without a rate today is in no figure (none is counted).
  const leftOut = new Set<string>();
  for (const row of await runningCostRowsIn(ctx, missing)) {
    converter.omit(row.id, row.currency, monthlyMinor(row));
    leftOut.add(row.id);
  }
  const tally = (target: Tally, rows: readonly CostSum[]): void => {
    for (const row of rows) {
      if (missing.includes(row.currency)) continue;
      target.add(
        row.key,
        'monthly',
        row.currency,
        monthlyMinor({
          amount_minor: row.amount,
          cycle_unit: row.cycle_unit,
          cycle_every: row.cycle_every,
        }),
      );
      target.countMany(row.key, row.count);
    }
  };
  tally(t.totals, sums);
  tally(t.groups, groupSums);
  tally(t.members, shareSums);
  return { converter, leftOutCount: leftOut.size };
}

/**
 * A period: every charge in it (chargesBetween: recorded ones replace expected ones), each
 * converted at the rate of its own date; skipped charges count for nothing.
 */
async function tallyPeriod(
  ctx: OpContext,
  by: GroupBy,
  from: string,
  to: string,
  t: Tallies,
): Promise<Tallied> {
  const [subs, shares, tags] = await Promise.all([
    fullRows(ctx),
    sharesBySubscription(ctx),
    by === 'tag' ? tagsBySubscription(ctx) : Promise.resolve(new Map<string, string[]>()),
  ]);
  const charges = await chargesBetween(ctx.tx.trx, subs, from, to);
  const converter = await Converter.load(
    ctx,
    charges.map((c) => c.currency),
    from,
    to,
  );
  const byId = new Map(subs.map((s) => [s.id, s]));
  // Left out: a subscription none of whose charges in the period had a rate (one converted on
  // some dates and not others is counted, and its unconverted part is in conversion.left_out).
  const counted = new Set<string>();
  const unconverted = new Set<string>();
  for (const charge of charges) {
    const row = byId.get(charge.subscription_id);
    if (!row || charge.status === 'skipped') continue;
    const parsed = parseAmount(charge.amount, charge.currency);
    if (!parsed.ok) continue;
    const converted = converter.convert(parsed.minor, charge.currency, charge.due_date, row.id);
    if (converted === null) {
      unconverted.add(row.id);
      continue;
    }
    counted.add(row.id);
    const field = charge.status;
    t.totals.add('', field, converter.target, converted);
    t.totals.countSubscription('', row.id);
    if (by !== 'none') {
      for (const key of groupKeysOf(row, by, tags)) {
        t.groups.add(key, field, converter.target, converted);
        t.groups.countSubscription(key, row.id);
      }
    }
    for (const share of sharesOf(row, shares)) {
      t.members.add(
        share.member_id,
        field,
        converter.target,
        (converted * share.share_bp) / 10_000,
      );
      t.members.countSubscription(share.member_id, row.id);
    }
  }
  return {
    converter,
    leftOutCount: [...unconverted].filter((id) => !counted.has(id)).length,
  };
}

/** Who pays a subscription: its shares, or all of it by its member when it has none. */
function sharesOf(
  row: CostRow,
  shares: Map<string, ShareRow[]>,
): ReadonlyArray<{ member_id: string; share_bp: number }> {
  const list = shares.get(row.id);
  return list && list.length > 0 ? list : [{ member_id: row.member_id, share_bp: 10_000 }];
}

async function groupNamesFor(ctx: OpContext, by: GroupBy): Promise<Map<string, string>> {
  switch (by) {
    case 'none':
      return new Map();
    case 'category':
      return namesOf(ctx, 'categories');
    case 'payment_method':
      return namesOf(ctx, 'payment_methods');
    case 'member':
      return namesOf(ctx, 'members');
    case 'tag':
      return namesOf(ctx, 'tags');
    default: {
      const unreachable: never = by;
      return unreachable;
    }
  }
}

function groupName(
  ctx: OpContext,
  by: GroupBy,
  id: string | null,
  names: Map<string, string>,
): string {
  if (id !== null) return names.get(id) ?? '';
  return t(ctx.actor.locale, `insights.group.none.${by}`);
}
