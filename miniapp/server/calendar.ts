import { Hono } from 'hono';

import type { EdgeEnv, RouteGroup } from '../../bot/http/app.ts';
import {
  calendarFeedOwner,
  type Core,
  type Locale,
  memberActor,
  OpError,
  t,
} from '../../core/index.ts';
import { renderCalendar, type AllDayEvent } from './ical.ts';

/** A year ahead: what `get_upcoming` can look at most. */
const FEED_DAYS = 366;

const moneyFormats = new Map<string, Intl.NumberFormat>();

/**
 * An amount ("9.99") as the app writes it for the reader ("€9.99", "9,99 €"): the feed sits beside
 * the app in a person's calendar, so it speaks the same formats. A code Intl does not know keeps
 * its code.
 */
function feedMoney(amount: string, currency: string, locale: Locale): string {
  const key = `${locale}:${currency}`;
  let format = moneyFormats.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    } catch {
      return `${amount} ${currency}`;
    }
    moneyFormats.set(key, format);
  }
  return format.format(Number(amount));
}

/**
 * `GET /cal/<token>.ics`: a member's calendar feed, the token its only credential (calendar apps
 * send no headers). Unknown, malformed or revoked tokens answer 404, as any unknown path. The
 * events are the member's `get_upcoming` for the year ahead (charges, trial ends, notice
 * deadlines), read as that member in person on the web surface: their privacy, their language.
 */
export function calendarRoutes(core: Core): RouteGroup {
  const group = new Hono<EdgeEnv>();
  group.get('/:file', async (c) => {
    const file = c.req.param('file');
    if (!file.endsWith('.ics')) throw new OpError('not_found');
    const owner = await calendarFeedOwner(core.db, file.slice(0, -'.ics'.length));
    if (!owner) throw new OpError('not_found');
    const actor = memberActor(
      {
        id: owner.memberId,
        household_id: owner.householdId,
        role: owner.role,
        language: owner.language,
      },
      'web',
    );
    const household = (await core.invoke('get_household', actor, {}, { surface: 'web' }))
      .output as {
      name: string;
      time_zone: string;
    };
    const upcoming = (
      await core.invoke('get_upcoming', actor, { days: FEED_DAYS }, { surface: 'web' })
    ).output as {
      items: Array<{
        date: string;
        kind: 'charge' | 'trial_end' | 'notice_deadline';
        subscription_id: string;
        subscription_name: string;
        amount: string;
        currency: string;
      }>;
    };
    const locale = actor.locale;
    const events: AllDayEvent[] = upcoming.items.map((item) => {
      const amount = feedMoney(item.amount, item.currency, locale);
      return {
        uid: `${item.kind}-${item.subscription_id}-${item.date}@exhale`,
        date: item.date,
        summary: t(locale, `web.cal.${item.kind}`, { name: item.subscription_name, amount }),
        description: t(locale, `web.cal.${item.kind}.description`, {
          name: item.subscription_name,
          amount,
        }),
        categories: 'Exhale',
      };
    });
    const body = renderCalendar({
      name: t(locale, 'web.cal.name', { household: household.name }),
      timeZone: household.time_zone,
      stamp: core.clock(),
      refresh: 'PT6H',
      events,
    });
    return c.body(body, 200, {
      'content-type': 'text/calendar; charset=utf-8',
      'cache-control': 'private, max-age=900',
      'content-disposition': 'inline; filename="exhale.ics"',
    });
  });
  return group;
}
