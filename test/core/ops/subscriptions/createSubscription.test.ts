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
    // A currency without decimals says so, not "at most 0 decimals".
    expect((jpy as OpError).issues).toEqual([
      { path: 'amount', message: 'JPY amounts are whole numbers, without decimals.' },
    ]);
    expect(await h.db.knex('subscriptions').count({ n: '*' })).toEqual(before);
  });

  it('refuses a date before 1970 (a year typed wrong) on its dates, in both languages, and writes nothing', async () => {
    const spanish = await h.addMember('Luis', 'es');
    const refused = async (actor: typeof h.owner, input: Record<string, unknown>) =>
      (
        (await h.core
          .invoke('create_subscription', actor, { name: 'Paper', amount: '5.00', ...input })
          .catch((e: unknown) => e)) as OpError
      ).issues;
    expect(await refused(h.owner, { first_charge_date: '1900-01-01' })).toEqual([
      { path: 'first_charge_date', message: 'Must be 1970 or later.' },
    ]);
    expect(
      await refused(spanish, {
        status: 'trial',
        trial_ends_on: '1969-12-31',
        contract_ends_on: '1901-01-01',
      }),
    ).toEqual([
      { path: 'trial_ends_on', message: 'Debe ser de 1970 o posterior.' },
      { path: 'contract_ends_on', message: 'Debe ser de 1970 o posterior.' },
    ]);
    expect(await h.db.knex('subscriptions')).toEqual([]);
    // 1970 itself is a date like any other.
    const made = await h.core.invoke('create_subscription', h.owner, {
      name: 'Paper',
      amount: '5.00',
      first_charge_date: '1970-01-01',
    });
    expect(made.output.first_charge_date).toBe('1970-01-01');
  });

  it('says what a web address must be, in the reader’s words, not zod’s “Invalid URL”', async () => {
    const spanish = await h.addMember('Luis', 'es');
    for (const [actor, message] of [
      [
        h.owner,
        'Must be a web address starting with http:// or https://, such as https://example.com.',
      ],
      [
        spanish,
        'Debe ser una dirección web que empiece por http:// o https://, como https://example.com.',
      ],
    ] as const) {
      const error = (await h.core
        .invoke('create_subscription', actor, { name: 'Web', amount: '1.00', url: 'netflix' })
        .catch((e: unknown) => e)) as OpError;
      expect(error.issues).toEqual([{ path: 'url', message }]);
    }
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
