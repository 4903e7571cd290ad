import type { types } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { z } from 'zod';

import {
  formatDate,
  LEFT_OUT_NAMED,
  leftOutSentence,
  money as moneyText,
} from '../../core/chat/index.ts';
import type { Actor, Core, Locale } from '../../core/index.ts';
import { t } from '../../core/index.ts';
import { escapeMrkdwn } from './render.ts';

const Totals = z.object({
  currency: z.string(),
  subscription_count: z.number(),
  left_out_count: z.number(),
  totals: z.object({ monthly: z.string().optional(), yearly: z.string().optional() }),
  conversion: z.object({
    partial: z.boolean(),
    left_out: z.array(
      z.object({ subscription_id: z.string(), amount: z.string(), currency: z.string() }),
    ),
  }),
});
type Totals = z.infer<typeof Totals>;

/**
 * "3 subscriptions": every running one, and when some had no exchange rate how many of them the
 * costs hold ("3 subscriptions, 2 of them in these costs"; the left-out line names the others).
 */
function countText(locale: Locale, totals: Totals): string {
  const n = totals.subscription_count + totals.left_out_count;
  const counted = totals.subscription_count;
  if (totals.left_out_count === 0)
    return t(locale, n === 1 ? 'slack.home.count.one' : 'slack.home.count.other', { n });
  if (counted === 0)
    return t(locale, n === 1 ? 'slack.home.count_none.one' : 'slack.home.count_none.other', { n });
  return t(locale, 'slack.home.count_partial', { n, counted });
}

/** The left-out line under the costs, the subscriptions named as the member may see them. */
async function leftOutText(
  core: Core,
  actor: Actor,
  locale: Locale,
  totals: Totals,
): Promise<string> {
  const names = new Map<string, string>();
  for (const item of totals.conversion.left_out.slice(0, LEFT_OUT_NAMED)) {
    if (names.has(item.subscription_id)) continue;
    const found = await core
      .invoke('get_subscription', actor, { id: item.subscription_id }, { surface: 'chat' })
      .then((r) => z.object({ name: z.string() }).parse(r.output).name)
      .catch(() => null);
    if (found !== null) names.set(item.subscription_id, escapeMrkdwn(found));
  }
  return leftOutSentence(locale, totals.conversion.left_out, names, { monthly: true });
}

const Upcoming = z.object({
  currency: z.string(),
  items: z.array(
    z.object({
      date: z.string(),
      kind: z.string(),
      subscription_name: z.string(),
      amount: z.string().nullable().optional(),
      currency: z.string().nullable().optional(),
    }),
  ),
});

const NEXT_SHOWN = 5;
const ATTENTION_KINDS = new Set(['trial_end', 'notice_deadline']);

/** The App Home view: a list of Block Kit blocks, as `views.publish` takes them. */
export interface HomeView {
  type: 'home';
  blocks: types.KnownBlock[];
}

const section = (text: string): types.SectionBlock => ({
  type: 'section',
  text: { type: 'mrkdwn', text },
});

/**
 * The App Home overview of one member, read through the ops a member's chat reads with
 * (`get_totals`, `get_upcoming`, surface `chat`, the member's own privacy): monthly and yearly cost,
 * how many subscriptions and what the costs left out for want of an exchange rate, the next charges, what needs attention (a trial that turns paid, a notice deadline), and a
 * button to the web app when one is configured. A newcomer gets how to start.
 */
export async function homeView(
  core: Core,
  actor: Actor | null,
  locale: Locale,
  webUrl: string | null,
): Promise<HomeView> {
  if (!actor || actor.householdId === null)
    return { type: 'home', blocks: [section(t(locale, 'slack.home.newcomer'))] };
  const totals = Totals.parse(
    (await core.invoke('get_totals', actor, {}, { surface: 'chat' })).output,
  );
  const upcoming = Upcoming.parse(
    (await core.invoke('get_upcoming', actor, { days: 30 }, { surface: 'chat' })).output,
  );
  const money = (amount: string | null | undefined, currency: string | null | undefined): string =>
    amount ? moneyText(amount, currency ?? totals.currency, locale) : '—';
  const day = (date: string): string => formatDate(date, locale);
  const blocks: types.KnownBlock[] = [
    { type: 'header', text: { type: 'plain_text', text: t(locale, 'slack.home.title') } },
    section(
      t(locale, 'slack.home.costs', {
        monthly: money(totals.totals.monthly, totals.currency),
        yearly: money(totals.totals.yearly, totals.currency),
      }),
    ),
    section(countText(locale, totals)),
  ];
  // Costs that leave a subscription out say which (as chat's /totals does), never a silent total.
  if (totals.conversion.partial)
    blocks.push(section(await leftOutText(core, actor, locale, totals)));
  const charges = upcoming.items.filter((i) => i.kind === 'charge').slice(0, NEXT_SHOWN);
  blocks.push(
    section(
      [
        t(locale, 'slack.home.next'),
        ...(charges.length > 0
          ? charges.map(
              (c) =>
                `• ${day(c.date)} · ${escapeMrkdwn(c.subscription_name)} · ${money(c.amount, c.currency)}`,
            )
          : [t(locale, 'slack.home.next_none')]),
      ].join('\n'),
    ),
  );
  const attention = upcoming.items.filter((i) => ATTENTION_KINDS.has(i.kind));
  if (attention.length > 0)
    blocks.push(
      section(
        [
          t(locale, 'slack.home.attention'),
          ...attention.map(
            (a) =>
              `• ${day(a.date)} · ${escapeMrkdwn(a.subscription_name)}: ${t(locale, `slack.home.kind.${a.kind}`)}`,
          ),
        ].join('\n'),
      ),
    );
  if (webUrl)
    blocks.push({
      type: 'actions',
      block_id: 'home',
      elements: [
        {
          type: 'button',
          action_id: 'link:home',
          text: { type: 'plain_text', text: t(locale, 'slack.home.open_web') },
          url: webUrl,
        },
      ],
    });
  return { type: 'home', blocks };
}

/** Publishes a member's App Home (`views.publish`). */
export async function publishHome(client: WebClient, user: string, view: HomeView): Promise<void> {
  await client.views.publish({ user_id: user, view });
}
