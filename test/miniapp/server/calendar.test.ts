import ICAL from 'ical.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { escapeText, foldLine } from '../../../miniapp/server/ical.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';
import { serve, type Served } from './harness.ts';

describe('GET /cal/<token>.ics: the member’s calendar feed', () => {
  let h: TestHousehold;
  let s: Served;
  beforeEach(async () => {
    h = await createTestHousehold();
    s = serve(h.core);
  });
  afterEach(async () => h.close());

  it('is valid RFC 5545: charges for a year, trial ends and notice deadlines as all-day events', async () => {
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix; Premium, 4K',
      amount: '15.99',
      first_charge_date: '2026-01-05',
    });
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Gimnasio Ñandú con un nombre muy largo que obliga a plegar la línea del calendario',
      amount: '39.90',
      first_charge_date: '2026-03-20',
      status: 'trial',
      trial_ends_on: '2026-03-20',
      contract_ends_on: '2026-12-31',
      notice_days: 30,
    });
    const feed = (await h.core.invoke('create_calendar_feed', h.owner, {})).output;
    const res = await s.request(feed.path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const text = await res.text();
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);

    const calendar = new ICAL.Component(ICAL.parse(text));
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Exhale: Test home');
    expect(calendar.getFirstProperty('refresh-interval')?.toICALString()).toBe(
      'REFRESH-INTERVAL;VALUE=DURATION:PT6H',
    );
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    const netflix = events.filter((e) => e.summary.startsWith('Netflix; Premium, 4K'));
    expect(netflix.length).toBeGreaterThanOrEqual(12);
    expect(netflix[0]?.summary).toBe('Netflix; Premium, 4K: €15.99');
    expect(netflix[0]?.startDate.isDate).toBe(true);
    expect(netflix[0]?.startDate.toString()).toBe('2026-03-05');
    expect(netflix[0]?.endDate.toString()).toBe('2026-03-06');
    expect(new Set(events.map((e) => e.uid)).size).toBe(events.length);
    expect(events.every((e) => e.component.getFirstPropertyValue('dtstamp'))).toBe(true);
    expect(events.some((e) => e.summary.endsWith('trial ends'))).toBe(true);
    const notice = events.find((e) => e.summary.endsWith('last day to cancel'));
    expect(notice?.startDate.toString()).toBe('2026-12-01');
    expect(events.some((e) => e.summary.includes('Gimnasio Ñandú con un nombre muy largo'))).toBe(
      true,
    );
  });

  it('shows no other member’s private subscription, in the member’s language and formats', async () => {
    const luis = await h.addMember('Luis', 'es');
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Secret',
      amount: '5',
      first_charge_date: '2026-03-10',
      private: true,
    });
    await h.core.invoke('create_subscription', luis, {
      name: 'Spotify',
      amount: '10.99',
      first_charge_date: '2026-03-12',
    });
    const feed = (await h.core.invoke('create_calendar_feed', luis, {})).output;
    const text = await (await s.request(feed.path)).text();
    expect(text).not.toContain('Secret');
    // Money as the app writes it in Spanish (decimal comma, the sign after): "10,99 €".
    expect(text).toContain('SUMMARY:Spotify: 10\\,99\u00a0€');
    expect(text).toContain('DESCRIPTION:Spotify cobra 10\\,99\u00a0€ hoy');
  });

  it('answers 404 for a revoked, unknown or malformed token', async () => {
    const feed = (await h.core.invoke('create_calendar_feed', h.owner, {})).output;
    await h.core.invoke('revoke_calendar_feed', h.owner, {});
    for (const path of [
      feed.path,
      `/cal/cal_${'a'.repeat(32)}.ics`,
      '/cal/nope.ics',
      `/cal/${feed.token}`,
    ])
      expect((await s.request(path)).status).toBe(404);
  });

  it('escapes TEXT and folds lines at 75 octets without splitting a character', () => {
    expect(escapeText('a;b,c\\d\ne')).toBe('a\\;b\\,c\\\\d\\ne');
    const folded = foldLine(`SUMMARY:${'ñ'.repeat(60)}`);
    for (const line of folded.split('\r\n'))
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(folded.replace(/\r\n /g, '')).toBe(`SUMMARY:${'ñ'.repeat(60)}`);
  });
});
