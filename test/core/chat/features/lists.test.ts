import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Actor } from '../../../../core/kernel/actor.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';
import { ChatDriver } from './chatDriver.ts';

/**
 * /totals counts every running subscription, and says how many of them the figures hold when
 * one had no exchange rate (the left-out line names it): never "Active subscriptions: 1" for two.
 */
describe('/totals: the count of subscriptions beside costs that left some out', () => {
  let h: TestHousehold;
  let ben: Actor;
  let spotify: string;
  beforeEach(async () => {
    h = await createTestHousehold();
    ben = await h.addMember('Ben', 'es');
    const add = async (name: string, amount: string, currency?: string): Promise<string> =>
      (
        await h.core.invoke('create_subscription', h.owner, {
          name,
          amount,
          currency,
          first_charge_date: '2026-01-05',
        })
      ).output.id;
    await add('Netflix', '15.99');
    spotify = await add('Spotify', '10.99');
    await add('AT&T', '30.00', 'USD');
  });
  afterEach(async () => h.close());

  const totals = async (actor: Actor): Promise<string> =>
    ChatDriver.text(await new ChatDriver(h.core, actor).say('/totals'));

  it('counts Netflix and AT&T as active after Spotify is paused, one of them in the totals (English)', async () => {
    await h.core.invoke('pause_subscription', h.owner, { id: spotify });
    const card = await totals(h.owner);
    expect(card).toContain('Per month: 15.99 EUR');
    expect(card).toContain('Active subscriptions: 2, 1 of them in these totals');
    expect(card).toContain('⚠️ Left out, with no exchange rate: AT&T 30.00 USD a month.');
  });

  it('says the same in Spanish, and "none" when no figure could hold any', async () => {
    expect(await totals(ben)).toContain('Suscripciones activas: 3, 2 de ellas en estos totales');
    const { output } = await h.core.invoke('list_subscriptions', h.owner, {});
    for (const sub of output.items.filter((s) => s.currency === 'EUR'))
      await h.core.invoke('pause_subscription', h.owner, { id: sub.id });
    const card = await totals(ben);
    expect(card).toContain('Suscripciones activas: 1, ninguna en estos totales');
    expect(card).toContain('⚠️ Sin tipo de cambio, se han dejado fuera: AT&T 30,00 USD al mes.');
  });

  it('keeps the plain count when every subscription is in the totals', async () => {
    await h.core.invoke('set_exchange_rate', h.owner, {
      currency: 'USD',
      rate: '1.25',
      date: '2026-03-01',
    });
    const card = await totals(h.owner);
    expect(card).toContain('Active subscriptions: 3\n');
    expect(card).not.toContain('Left out');
  });
});
