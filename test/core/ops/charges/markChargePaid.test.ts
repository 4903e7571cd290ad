import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { OpError } from '../../../../core/errors/index.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';

describe('mark_charge_paid and skip_charge', () => {
  let h: TestHousehold;
  let prime: string;
  beforeEach(async () => {
    h = await createTestHousehold();
    prime = (
      await h.core.invoke('create_subscription', h.owner, {
        name: 'Amazon Prime',
        amount: '49.90',
        cycle: { unit: 'year', every: 1 },
        first_charge_date: '2025-01-28',
      })
    ).output.id;
  });
  afterEach(async () => h.close());

  const refusal = async (op: 'mark_charge_paid' | 'skip_charge', due: string) => {
    const error = await h.core
      .invoke(op, h.owner, { subscription_id: prime, due_date: due })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpError);
    return (error as OpError).render('en');
  };

  it('records a charge on a date of the series, with the price of that day', async () => {
    const { output } = await h.core.invoke('mark_charge_paid', h.owner, {
      subscription_id: prime,
      due_date: '2026-01-28',
    });
    expect(output).toMatchObject({ due_date: '2026-01-28', status: 'paid', amount: '49.90' });
  });

  it('refuses a date that is not a charge date, naming the nearest ones, and records nothing', async () => {
    expect(await refusal('mark_charge_paid', '2026-01-05')).toContain(
      'Amazon Prime is not charged on 2026-01-05; the nearest charge dates are 2025-01-28, 2026-01-28.',
    );
    expect(await refusal('skip_charge', '2024-06-01')).toContain(
      'the nearest charge dates are 2025-01-28.',
    );
    expect(await h.db.knex('charges')).toEqual([]);
  });

  it('still re-records a charge already recorded on a date the series has since moved away from', async () => {
    await h.core.invoke('mark_charge_paid', h.owner, {
      subscription_id: prime,
      due_date: '2026-01-28',
    });
    await h.core.invoke('update_subscription', h.owner, {
      id: prime,
      first_charge_date: '2025-02-01',
    });
    const { output } = await h.core.invoke('skip_charge', h.owner, {
      subscription_id: prime,
      due_date: '2026-01-28',
    });
    // A skipped charge shows the price that was not taken.
    expect(output).toMatchObject({ due_date: '2026-01-28', status: 'skipped', amount: '49.90' });
  });
});
