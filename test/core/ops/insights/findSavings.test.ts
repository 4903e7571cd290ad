import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Actor } from '../../../../core/kernel/actor.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';

describe('find_savings', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  /** Recent monthly plans unless told otherwise, so only the finding under test shows up. */
  const add = async (input: Record<string, unknown>, actor: Actor = h.owner): Promise<string> =>
    (
      await h.core.invoke('create_subscription', actor, {
        first_charge_date: '2026-02-01',
        ...input,
      })
    ).output.id;
  /** The findings of a kind, without their facts (the facts have a test of their own below). */
  const findings = async (kind: string, actor: Actor = h.owner) =>
    (await h.core.invoke('find_savings', actor, {})).output.findings
      .filter((f) => f.kind === kind)
      .map(({ facts: _facts, ...finding }) => finding);

  it('finds the same service twice by normalised name or by vendor, saving all but the dearest', async () => {
    const a = await add({ name: 'Netflix', amount: '15.99' });
    const b = await add({ name: ' netflix!', amount: '12.99' });
    const yt = await add({ name: 'YouTube Premium', vendor: 'Google', amount: '11.99' });
    const one = await add({ name: 'Google One', vendor: 'google', amount: '1.99' });
    await add({ name: 'Spotify', amount: '10.99' });
    const found = await findings('duplicate');
    expect(found).toEqual([
      {
        kind: 'duplicate',
        subscription_ids: [a, b],
        explanation: 'Netflix, netflix! look like the same service (2 subscriptions).',
        estimated_yearly_saving: '155.88',
      },
      {
        kind: 'duplicate',
        subscription_ids: [one, yt],
        explanation: 'Google One, YouTube Premium look like the same service (2 subscriptions).',
        estimated_yearly_saving: '23.88',
      },
    ]);
  });

  it("warns of a trial turning paid within 7 days, with its yearly cost as the saving, in the member's language", async () => {
    const luis = await h.addMember('Luis', 'es');
    const soon = await add(
      {
        name: 'Max',
        amount: '9.99',
        status: 'trial',
        trial_ends_on: '2026-03-06',
        first_charge_date: '2026-03-06',
      },
      luis,
    );
    await add({
      name: 'Later',
      amount: '5.00',
      status: 'trial',
      trial_ends_on: '2026-03-20',
      first_charge_date: '2026-03-20',
    });
    expect(await findings('trial_converting', luis)).toEqual([
      {
        kind: 'trial_converting',
        subscription_ids: [soon],
        explanation:
          'La prueba de Max termina el vie, 6 mar 2026; después cuesta unos 119,88 EUR al año.',
        estimated_yearly_saving: '119.88',
      },
    ]);
  });

  it('reports price increases of the last 12 months with their yearly extra, not older ones or decreases', async () => {
    const up = await add({ name: 'Disney+', amount: '9.99', first_charge_date: '2026-02-01' });
    await h.core.invoke('update_subscription', h.owner, {
      id: up,
      amount: '11.99',
      price_effective_date: '2025-10-01',
    });
    const old = await add({ name: 'Old rise', amount: '5.00' });
    await h.core.invoke('update_subscription', h.owner, {
      id: old,
      amount: '6.00',
      price_effective_date: '2025-02-01',
    });
    const down = await add({ name: 'Cheaper', amount: '8.00' });
    await h.core.invoke('update_subscription', h.owner, {
      id: down,
      amount: '7.00',
      price_effective_date: '2026-01-01',
    });
    expect(await findings('price_increase')).toEqual([
      {
        kind: 'price_increase',
        subscription_ids: [up],
        explanation:
          'Disney+ went up from 9.99 EUR to 11.99 EUR on Wed, 1 Oct 2025 (+20%): about 24.00 EUR more a year.',
        estimated_yearly_saving: '24.00',
      },
    ]);
  });

  it('counts only the latest price change of a subscription: a rise replaced by a later change is gone', async () => {
    const twice = await add({ name: 'Netflix', amount: '13.99', first_charge_date: '2025-01-05' });
    await h.core.invoke('update_subscription', h.owner, {
      id: twice,
      amount: '15.99',
      price_effective_date: '2025-10-05',
    });
    await h.core.invoke('update_subscription', h.owner, {
      id: twice,
      amount: '17.99',
      price_effective_date: '2026-02-05',
    });
    const lowered = await add({ name: 'Gym', amount: '30.00', first_charge_date: '2025-01-05' });
    await h.core.invoke('update_subscription', h.owner, {
      id: lowered,
      amount: '35.00',
      price_effective_date: '2025-09-01',
    });
    await h.core.invoke('update_subscription', h.owner, {
      id: lowered,
      amount: '32.00',
      price_effective_date: '2026-01-01',
    });
    const found = (await h.core.invoke('find_savings', h.owner, {})).output.findings.filter(
      (f) => f.kind === 'price_increase',
    );
    // Netflix once, at its latest change, up to what it costs now; the lowered Gym not at all.
    expect(found).toEqual([
      {
        kind: 'price_increase',
        subscription_ids: [twice],
        explanation:
          'Netflix went up from 15.99 EUR to 17.99 EUR on Thu, 5 Feb 2026 (+12.5%): about 24.00 EUR more a year.',
        estimated_yearly_saving: '24.00',
        // What the sentence says, as data, for a screen that writes it in its reader's formats.
        facts: {
          names: ['Netflix'],
          date: '2026-02-05',
          currency: 'EUR',
          old_amount: '15.99',
          new_amount: '17.99',
          yearly: '24.00',
          percent: '12.5',
        },
      },
    ]);
  });

  it('writes a Spanish reader’s sentences with their dates, amounts and decimal marks, never ISO dates or 9.99 EUR', async () => {
    const luis = await h.addMember('Luis', 'es');
    const up = await add({ name: 'Disney+', amount: '9.99', first_charge_date: '2026-02-01' });
    await h.core.invoke('update_subscription', h.owner, {
      id: up,
      amount: '10.99',
      price_effective_date: '2025-10-01',
    });
    const [found] = await findings('price_increase', luis);
    expect(found?.explanation).toBe(
      'Disney+ subió de 9,99 EUR a 10,99 EUR el mié, 1 oct 2025 (+10 %): unos 12,00 EUR más al año.',
    );
    const dropbox = await add({
      name: 'Dropbox',
      amount: '11.99',
      first_charge_date: '2025-06-10',
    });
    const long = (await findings('yearly_vs_monthly', luis)).find((f) =>
      f.subscription_ids.includes(dropbox),
    );
    for (const text of [found?.explanation, long?.explanation]) {
      expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
      expect(text).not.toMatch(/\d\.\d{2} EUR/);
    }
    expect(long?.explanation).toContain('143,88 EUR');
  });

  it('points at monthly plans older than 6 months with what they cost a year, without inventing a saving', async () => {
    const long = await add({ name: 'Dropbox', amount: '11.99', first_charge_date: '2025-06-10' });
    await add({ name: 'New', amount: '5.00', first_charge_date: '2025-12-10' });
    await add({
      name: 'Yearly',
      amount: '99.00',
      cycle: { unit: 'year', every: 1 },
      first_charge_date: '2024-01-10',
    });
    const paused = await add({ name: 'Paused', amount: '3.00', first_charge_date: '2024-01-10' });
    await h.core.invoke('pause_subscription', h.owner, { id: paused });
    expect(await findings('yearly_vs_monthly')).toEqual([
      {
        kind: 'yearly_vs_monthly',
        subscription_ids: [long],
        explanation:
          'Dropbox has been paid monthly since Tue, 10 Jun 2025: 143.88 EUR a year. A yearly plan is often cheaper.',
        estimated_yearly_saving: null,
      },
    ]);
  });

  it("adds up the savings it could compute, and ignores another member's private subscriptions", async () => {
    const luis = await h.addMember('Luis');
    await add({ name: 'Netflix', amount: '15.99' });
    await add({ name: 'Netflix', amount: '12.99', private: true }, luis);
    await add({
      name: 'Max',
      amount: '9.99',
      status: 'trial',
      trial_ends_on: '2026-03-06',
      first_charge_date: '2026-03-06',
    });
    const ana = await h.core.invoke('find_savings', h.owner, {});
    expect(ana.output.findings.map((f) => f.kind)).toEqual(['trial_converting']);
    expect(ana.output.total_estimated_yearly_saving).toBe('119.88');
    const own = await h.core.invoke('find_savings', luis, {});
    expect(own.output.findings.map((f) => f.kind)).toEqual(['trial_converting', 'duplicate']);
    expect(own.output.total_estimated_yearly_saving).toBe('275.76');
  });
});
