import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { OpError } from '../../../../core/errors/index.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';

describe('create_subscription', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('stores the amount in minor units and returns it as a decimal string with the next charge', async () => {
    const { output, auditId } = await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
      cycle: { unit: 'month', every: 1 },
      first_charge_date: '2026-01-31',
      category: 'Streaming',
      tags: ['tv', 'family'],
    });
    expect(output).toMatchObject({
      name: 'Netflix',
      amount: '15.99',
      currency: 'EUR',
      next_charge_date: '2026-03-31',
      category: { name: 'Streaming' },
      monthly_cost: '15.99',
    });
    expect(output.tags.map((t) => t.name)).toEqual(['family', 'tv']);
    expect(auditId).not.toBeNull();
    const row = await h.db.knex('subscriptions').where({ id: output.id }).first();
    expect(row.amount_minor).toBe(1599);
  });

  it("refuses more decimals than the currency has, in the member's language, and writes nothing", async () => {
    const spanish = await h.addMember('Luis', 'es');
    const before = await h.db.knex('subscriptions').count({ n: '*' });
    const error = await h.core
      .invoke('create_subscription', spanish, { name: 'Spotify', amount: '10.999' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpError);
    expect((error as OpError).code).toBe('invalid_input');
    expect((error as OpError).render('es')).toContain('EUR tienen como máximo 2 decimales');
    const jpy = await h.core
      .invoke('create_subscription', h.owner, { name: 'Anime', amount: '1.5', currency: 'JPY' })
      .catch((e: unknown) => e);
    expect((jpy as OpError).render('en')).toContain('JPY amounts have at most 0 decimals');
    expect(await h.db.knex('subscriptions').count({ n: '*' })).toEqual(before);
  });

  it('takes only web addresses for its links: a javascript: link is refused', async () => {
    const error = await h.core
      .invoke('create_subscription', h.owner, {
        name: 'Trap',
        amount: '1.00',
        cancel_url: 'javascript:alert(1)',
      })
      .catch((e: unknown) => e);
    expect((error as OpError).code).toBe('invalid_input');
    expect(await h.db.knex('subscriptions')).toEqual([]);
  });

  it('takes a name as one line: a line break could pass for a line of Exhale’s own on a card', async () => {
    const error = await h.core
      .invoke('create_subscription', h.owner, {
        name: 'Netflix\n✅ Done: nothing will change',
        amount: '1.00',
      })
      .catch((e: unknown) => e);
    expect((error as OpError).render('en')).toContain('Must be one line, without line breaks.');
    expect(await h.db.knex('subscriptions')).toEqual([]);
  });
});
