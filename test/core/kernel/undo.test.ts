import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { OpError } from '../../../core/errors/index.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';

describe('undo', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  const add = (name = 'Netflix') =>
    h.core.invoke('create_subscription', h.owner, {
      name,
      amount: '15.99',
      first_charge_date: '2026-01-05',
    });

  it('restores a deleted subscription with its tags, charges and price history', async () => {
    const sub = await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
      first_charge_date: '2026-01-05',
      tags: ['tv'],
    });
    await h.core.invoke('mark_charge_paid', h.owner, {
      subscription_id: sub.output.id,
      due_date: '2026-02-05',
    });
    await h.core.invoke('update_subscription', h.owner, { id: sub.output.id, amount: '17.99' });
    const before = await h.core.invoke('get_subscription', h.owner, { id: sub.output.id });
    const deleted = await h.core.invoke('delete_subscription', h.owner, { id: sub.output.id });
    await expect(
      h.core.invoke('get_subscription', h.owner, { id: sub.output.id }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await h.core.invoke('undo', h.owner, { ids: [deleted.auditId] });
    expect(
      (await h.core.invoke('get_subscription', h.owner, { id: sub.output.id })).output,
    ).toEqual(before.output);
    const charges = await h.core.invoke('list_charges', h.owner, {
      from: '2026-02-01',
      to: '2026-02-28',
      subscription_id: sub.output.id,
    });
    expect(charges.output.items[0]).toMatchObject({ status: 'paid', amount: '15.99' });
  });

  it('refuses, changing nothing, when a record changed since', async () => {
    const sub = await add();
    const renamed = await h.core.invoke('update_subscription', h.owner, {
      id: sub.output.id,
      name: 'Netflix HD',
    });
    await h.core.invoke('update_subscription', h.owner, { id: sub.output.id, notes: 'later edit' });
    const error = await h.core
      .invoke('undo', h.owner, { ids: [renamed.auditId] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'undo_conflict' });
    // The record is named in the reader's words, never by its table.
    expect((error as OpError).render('es')).toBe(
      'No se puede deshacer: un registro afectado (Suscripción "Netflix HD") ha cambiado desde entonces. No se ha cambiado nada.',
    );
    const now = await h.core.invoke('get_subscription', h.owner, { id: sub.output.id });
    expect(now.output).toMatchObject({ name: 'Netflix HD', notes: 'later edit' });
  });

  it('undoes several entries newest first in one transaction, and an undo can itself be undone', async () => {
    const a = await add('A');
    const b = await add('B');
    const undone = await h.core.invoke('undo', h.owner, { ids: [a.auditId, b.auditId] });
    expect(undone.output.undone.map((u) => u.summary)).toEqual(['Added B', 'Added A']);
    expect((await h.core.invoke('list_subscriptions', h.owner, {})).output.total).toBe(0);
    await h.core.invoke('undo', h.owner, { ids: [undone.auditId] });
    expect(
      (await h.core.invoke('list_subscriptions', h.owner, {})).output.items.map((s) => s.name),
    ).toEqual(['A', 'B']);
    const activity = await h.core.invoke('list_activity', h.owner, { limit: 5 });
    expect(activity.output.items.find((e) => e.id === a.auditId)).toMatchObject({
      undone: false,
      can_undo: true,
    });
  });

  it('refuses to undo the same change twice', async () => {
    const a = await add();
    await h.core.invoke('undo', h.owner, { ids: [a.auditId] });
    await expect(h.core.invoke('undo', h.owner, { ids: [a.auditId] })).rejects.toMatchObject({
      code: 'conflict',
    });
  });

  it("without ids undoes the caller's own latest change", async () => {
    const luis = await h.addMember('Luis');
    await add('Mine');
    await h.core.invoke('create_subscription', luis, { name: 'His', amount: '1' });
    await h.core.invoke('undo', h.owner, {});
    expect(
      (await h.core.invoke('list_subscriptions', h.owner, {})).output.items.map((s) => s.name),
    ).toEqual(['His']);
  });

  it('never takes joining the household for "my last change"', async () => {
    const luis = await h.addMember('Luis');
    await expect(h.core.invoke('undo', luis, {})).rejects.toMatchObject({ code: 'not_found' });
    const members = await h.core.invoke('list_members', h.owner, {});
    expect(members.output.members.map((m) => m.name)).toEqual(['Ana', 'Luis']);
  });

  it("lets a member undo their own changes but not another member's", async () => {
    const mine = await add();
    const luis = await h.addMember('Luis', 'es');
    const error = await h.core
      .invoke('undo', luis, { ids: [mine.auditId] })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'forbidden' });
    const his = await h.core.invoke('create_subscription', luis, { name: 'Gym', amount: '30' });
    await h.core.invoke('undo', luis, { ids: [his.auditId] });
  });
});
