import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';
import { addSubscription, failure, snapshot, subscriptionRow } from './helpers.ts';

describe('payment methods', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  const create = (fields: Record<string, unknown>) =>
    h.core.invoke('create_payment_method', h.owner, fields);

  it('creates a payment method with its kind and last four digits', async () => {
    const { output, auditId } = await create({ name: 'Joint Visa', kind: 'card', last4: '4242' });
    expect(output).toEqual({
      id: expect.any(String),
      name: 'Joint Visa',
      kind: 'card',
      last4: '4242',
      subscription_count: 0,
    });
    expect(auditId).not.toBeNull();
    const cash = await create({ name: 'Cash', kind: 'cash' });
    expect(cash.output.last4).toBeNull();
  });

  it('refuses a duplicate name in other capitals, an unknown kind and malformed last digits, writing nothing', async () => {
    await create({ name: 'Joint Visa', kind: 'card' });
    const before = await snapshot(h);
    const duplicate = await failure(create({ name: 'joint visa', kind: 'bank' }));
    expect(duplicate.code).toBe('conflict');
    expect(duplicate.render('en')).toContain(
      'There is already a payment method called "Joint Visa"',
    );
    expect(duplicate.render('es')).toContain('Ya hay un método de pago llamado "Joint Visa"');
    const kind = await failure(create({ name: 'Bitcoin', kind: 'crypto' }));
    expect(kind.code).toBe('invalid_input');
    expect(kind.issues[0]?.path).toBe('kind');
    for (const last4 of ['424', '42a2', '12345']) {
      const error = await failure(create({ name: 'Amex', kind: 'card', last4 }));
      expect(error.render('en')).toContain('last4: Must be exactly four digits');
    }
    expect(await snapshot(h)).toEqual(before);
  });

  it('lists payment methods by name with how many subscriptions use each', async () => {
    const visa = (await create({ name: 'Visa', kind: 'card' })).output.id;
    await create({ name: 'bank account', kind: 'bank' });
    await addSubscription(h, { name: 'Netflix', payment_method_id: visa });
    const { output } = await h.core.invoke('list_payment_methods', h.owner, {});
    expect(output.items.map((m) => [m.name, m.kind, m.subscription_count])).toEqual([
      ['bank account', 'bank', 0],
      ['Visa', 'card', 1],
    ]);
  });

  it('updates the name, kind and last digits, and clears the digits with null', async () => {
    const id = (await create({ name: 'Visa', kind: 'card', last4: '1111' })).output.id;
    const changed = await h.core.invoke('update_payment_method', h.owner, {
      id,
      name: 'Old Visa',
      last4: '2222',
    });
    expect(changed.output).toMatchObject({ name: 'Old Visa', kind: 'card', last4: '2222' });
    const cleared = await h.core.invoke('update_payment_method', h.owner, {
      id,
      kind: 'other',
      last4: null,
    });
    expect(cleared.output).toMatchObject({ name: 'Old Visa', kind: 'other', last4: null });
  });

  it("refuses renaming to another payment method's name and an unknown id, writing nothing", async () => {
    await create({ name: 'Visa', kind: 'card' });
    const paypal = (await create({ name: 'PayPal', kind: 'paypal' })).output.id;
    const before = await snapshot(h);
    const clash = await failure(
      h.core.invoke('update_payment_method', h.owner, { id: paypal, name: 'VISA' }),
    );
    expect(clash.code).toBe('conflict');
    const unknown = await failure(
      h.core.invoke('update_payment_method', h.owner, { id: 'pm_nope', kind: 'cash' }),
    );
    expect(unknown.code).toBe('not_found');
    expect(unknown.render('en')).toBe("Payment method pm_nope wasn't found.");
    expect(await snapshot(h)).toEqual(before);
  });

  it('deletes a payment method leaving its subscriptions without one, or moving them to reassign_to', async () => {
    expect(h.core.op('delete_payment_method').effect).toBe('destructive');
    const visa = (await create({ name: 'Visa', kind: 'card' })).output.id;
    const bank = (await create({ name: 'Bank', kind: 'bank' })).output.id;
    const cash = (await create({ name: 'Cash', kind: 'cash' })).output.id;
    const a = await addSubscription(h, { name: 'Netflix', payment_method_id: visa });
    const b = await addSubscription(h, { name: 'Gym', payment_method_id: cash });

    const moved = await h.core.invoke('delete_payment_method', h.owner, {
      id: visa,
      reassign_to: bank,
    });
    expect(moved.output).toEqual({
      id: visa,
      name: 'Visa',
      deleted: true,
      reassigned_to: { id: bank, name: 'Bank' },
      subscriptions_moved: 1,
    });
    expect((await subscriptionRow(h, a)).payment_method_id).toBe(bank);

    const cleared = await h.core.invoke('delete_payment_method', h.owner, { id: cash });
    expect(cleared.output).toMatchObject({ reassigned_to: null, subscriptions_moved: 1 });
    expect((await subscriptionRow(h, b)).payment_method_id).toBeNull();
    expect(
      (await h.db.knex('payment_methods').select('id')).map((r: { id: string }) => r.id),
    ).toEqual([bank]);
  });

  it('refuses an unknown reassign_to and reassigning to itself, writing nothing', async () => {
    const visa = (await create({ name: 'Visa', kind: 'card' })).output.id;
    await addSubscription(h, { name: 'Netflix', payment_method_id: visa });
    const before = await snapshot(h);
    const unknown = await failure(
      h.core.invoke('delete_payment_method', h.owner, { id: visa, reassign_to: 'pm_nope' }),
    );
    expect(unknown.render('en')).toBe("Payment method pm_nope wasn't found.");
    const itself = await failure(
      h.core.invoke('delete_payment_method', h.owner, { id: visa, reassign_to: visa }),
    );
    expect(itself.code).toBe('invalid_input');
    expect(await snapshot(h)).toEqual(before);
  });

  it('undoes a delete, bringing back the payment method and its subscriptions', async () => {
    const visa = (await create({ name: 'Visa', kind: 'card', last4: '4242' })).output.id;
    await addSubscription(h, { name: 'Netflix', payment_method_id: visa });
    await addSubscription(h, { name: 'Spotify', payment_method_id: visa });
    const before = await snapshot(h);
    const { auditId } = await h.core.invoke('delete_payment_method', h.owner, { id: visa });
    await h.core.invoke('undo', h.owner, { ids: [auditId] });
    const after = await snapshot(h);
    expect(after.payment_methods).toEqual(before.payment_methods);
    expect(after.subscriptions).toEqual(before.subscriptions);
  });
});
