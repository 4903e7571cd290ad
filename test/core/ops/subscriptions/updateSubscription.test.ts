import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';

/** Price history as people see it: today is 2026-03-02 in tests. */
describe('update_subscription and prices over time', () => {
  let h: TestHousehold;
  let id: string;
  beforeEach(async () => {
    h = await createTestHousehold();
    id = (
      await h.core.invoke('create_subscription', h.owner, {
        name: 'Cloud',
        amount: '10.00',
        first_charge_date: '2026-01-10',
      })
    ).output.id;
  });
  afterEach(async () => h.close());

  const charges = async (): Promise<string[]> =>
    (
      await h.core.invoke('list_charges', h.owner, {
        from: '2026-01-01',
        to: '2026-07-31',
        subscription_id: id,
      })
    ).output.items.map((c) => `${c.due_date.slice(5)}=${c.amount}`);
  const history = async (): Promise<string[]> =>
    (await h.db.knex('price_changes').where({ subscription_id: id }).orderBy('effective_date')).map(
      (c: { effective_date: string; old_amount_minor: number; new_amount_minor: number }) =>
        `${c.effective_date}:${c.old_amount_minor}->${c.new_amount_minor}`,
    );

  it('refuses a trial end before 1970 as create_subscription does, and changes nothing', async () => {
    const error = await h.core
      .invoke('update_subscription', h.owner, { id, trial_ends_on: '1900-01-01' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'invalid_input',
      issues: [{ path: 'trial_ends_on', message: 'Must be 1970 or later.' }],
    });
    expect(
      (await h.db.knex('subscriptions').where({ id }).first('trial_ends_on')) as object,
    ).toEqual({ trial_ends_on: null });
  });

  it('keeps today’s price until a price rise announced for later starts', async () => {
    const { output } = await h.core.invoke('update_subscription', h.owner, {
      id,
      amount: '12.00',
      price_effective_date: '2026-06-01',
    });
    expect(output).toMatchObject({ amount: '10.00', monthly_cost: '10.00' });
    const totals = await h.core.invoke('get_totals', h.owner, {});
    expect(totals.output.totals.monthly).toBe('10.00');
    expect(await charges()).toEqual([
      '01-10=10.00',
      '02-10=10.00',
      '03-10=10.00',
      '04-10=10.00',
      '05-10=10.00',
      '06-10=12.00',
      '07-10=12.00',
    ]);
  });

  it('fits a backdated price into the history without rewriting what came before or after', async () => {
    await h.core.invoke('update_subscription', h.owner, {
      id,
      amount: '12.00',
      price_effective_date: '2026-06-01',
    });
    const { output } = await h.core.invoke('update_subscription', h.owner, {
      id,
      amount: '11.00',
      price_effective_date: '2026-02-01',
    });
    expect(await history()).toEqual(['2026-02-01:1000->1100', '2026-06-01:1100->1200']);
    expect(output).toMatchObject({ amount: '11.00' });
    expect(await charges()).toEqual([
      '01-10=10.00',
      '02-10=11.00',
      '03-10=11.00',
      '04-10=11.00',
      '05-10=11.00',
      '06-10=12.00',
      '07-10=12.00',
    ]);
  });

  it('replaces a price set for the same day, and undo puts the history back', async () => {
    await h.core.invoke('update_subscription', h.owner, {
      id,
      amount: '12.00',
      price_effective_date: '2026-02-01',
    });
    const second = await h.core.invoke('update_subscription', h.owner, {
      id,
      amount: '13.00',
      price_effective_date: '2026-02-01',
    });
    expect(await history()).toEqual(['2026-02-01:1000->1300']);
    await h.core.invoke('undo', h.owner, { ids: [second.auditId] });
    expect(await history()).toEqual(['2026-02-01:1000->1200']);
  });
});
