import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Actor } from '../../../core/kernel/actor.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';

/** Regressions found in review (2026-11-30): privacy, undo and money edge cases. */
describe('review regressions', () => {
  let h: TestHousehold;
  let luis: Actor;
  beforeEach(async () => {
    h = await createTestHousehold();
    luis = await h.addMember('Luis');
  });
  afterEach(async () => h.close());

  it("refuses a member taking over another member's subscription (and hiding it)", async () => {
    const sub = await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
    });
    await expect(
      h.core.invoke('update_subscription', luis, {
        id: sub.output.id,
        member_id: luis.memberId,
        private: true,
      }),
    ).rejects.toMatchObject({ code: 'forbidden' });
    const own = await h.core.invoke('create_subscription', luis, { name: 'Gym', amount: '30' });
    await h.core.invoke('update_subscription', luis, {
      id: own.output.id,
      member_id: luis.memberId,
      notes: 'mine',
    });
  });

  it('refuses undo as a way around a scope: a write token cannot bring back a revoked token', async () => {
    const token = await h.core.invoke('create_token', h.owner, {
      name: 'Old agent',
      scope: 'trusted',
    });
    const revoked = await h.core.invoke('revoke_token', h.owner, { id: token.output.id });
    const agent: Actor = { ...h.owner, kind: 'agent', scope: 'write', channel: 'mcp' };
    await expect(h.core.invoke('undo', agent, { ids: [revoked.auditId] })).rejects.toMatchObject({
      code: 'forbidden',
    });
    const removed = await h.core.invoke('remove_member', h.owner, { id: luis.memberId });
    const assistant: Actor = {
      ...h.owner,
      kind: 'assistant',
      scope: 'write',
      channel: 'assistant',
    };
    await expect(
      h.core.invoke('undo', assistant, { ids: [removed.auditId] }),
    ).rejects.toMatchObject({ code: 'forbidden' });
    await h.core.invoke('undo', h.owner, { ids: [removed.auditId] });
  });

  it('makes earlier activity private when its subscription becomes private', async () => {
    const therapy = await h.core.invoke('create_subscription', luis, {
      name: 'Therapy',
      amount: '90',
      first_charge_date: '2026-02-01',
    });
    const paid = await h.core.invoke('mark_charge_paid', luis, {
      subscription_id: therapy.output.id,
      due_date: '2026-02-01',
    });
    await h.core.invoke('update_subscription', luis, { id: therapy.output.id, private: true });
    const seen = await h.core.invoke('list_activity', h.owner, {});
    expect(seen.output.items.map((e) => e.summary).join('\n')).not.toContain('Therapy');
    await expect(h.core.invoke('undo', h.owner, { ids: [paid.auditId] })).rejects.toMatchObject({
      code: 'not_found',
    });
    await h.core.invoke('update_subscription', luis, { id: therapy.output.id, private: false });
    expect(
      (await h.core.invoke('list_activity', h.owner, {})).output.items
        .map((e) => e.summary)
        .join('\n'),
    ).toContain('Therapy');
  });

  it('never undoes creating the household, and two plain undos undo two changes', async () => {
    const created = await h.db.knex('audit_entries').where({ op: 'create_household' }).first('id');
    await expect(h.core.invoke('undo', h.owner, { ids: [created.id] })).rejects.toMatchObject({
      code: 'forbidden',
    });
    const activity = await h.core.invoke('list_activity', h.owner, { limit: 50 });
    expect(activity.output.items.find((e) => e.op === 'create_household')?.can_undo).toBe(false);
    await h.core.invoke('create_subscription', h.owner, { name: 'A', amount: '1' });
    await h.core.invoke('create_subscription', h.owner, { name: 'B', amount: '1' });
    await h.core.invoke('undo', h.owner, {});
    await h.core.invoke('undo', h.owner, {});
    expect((await h.core.invoke('list_subscriptions', h.owner, {})).output.total).toBe(0);
  });

  it('keeps the activity list true through undo, redo and undo again', async () => {
    const sub = await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
    });
    const rename = await h.core.invoke('update_subscription', h.owner, {
      id: sub.output.id,
      name: 'Netflix HD',
    });
    const u1 = await h.core.invoke('undo', h.owner, { ids: [rename.auditId] });
    const u2 = await h.core.invoke('undo', h.owner, { ids: [u1.auditId] });
    const u3 = await h.core.invoke('undo', h.owner, { ids: [u2.auditId] });
    expect(
      (await h.core.invoke('get_subscription', h.owner, { id: sub.output.id })).output.name,
    ).toBe('Netflix');
    const items = (await h.core.invoke('list_activity', h.owner, { limit: 10 })).output.items;
    const state = (id: string | null) => items.find((e) => e.id === id)?.undone;
    expect([
      state(rename.auditId),
      state(u1.auditId),
      state(u2.auditId),
      state(u3.auditId),
    ]).toEqual([true, false, true, false]);
    await expect(h.core.invoke('undo', h.owner, { ids: [rename.auditId] })).rejects.toMatchObject({
      code: 'conflict',
    });
  });

  it('refuses to undo a creation that later changes still use', async () => {
    const category = await h.core.invoke('create_category', h.owner, { name: 'Video' });
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
      category_id: category.output.id,
    });
    await expect(h.core.invoke('undo', h.owner, { ids: [category.auditId] })).rejects.toMatchObject(
      { code: 'undo_conflict' },
    );
    const sub = await h.core.invoke('create_subscription', h.owner, {
      name: 'Max',
      amount: '9.99',
      first_charge_date: '2026-02-01',
    });
    await h.core.invoke('mark_charge_paid', luis, {
      subscription_id: sub.output.id,
      due_date: '2026-02-01',
    });
    await expect(h.core.invoke('undo', h.owner, { ids: [sub.auditId] })).rejects.toMatchObject({
      code: 'undo_conflict',
    });
  });

  it("passes a removed member's shares to the heir so they still add up to 100 %", async () => {
    const rent = await h.core.invoke('create_subscription', h.owner, {
      name: 'Rent',
      amount: '1000',
      shares: [
        { member_id: h.ownerId, percent: '50' },
        { member_id: luis.memberId, percent: '50' },
      ],
    });
    await h.core.invoke('remove_member', h.owner, { id: luis.memberId });
    const after = await h.core.invoke('get_subscription', h.owner, { id: rent.output.id });
    expect(after.output.shares).toEqual([{ member_id: h.ownerId, percent: '100.00' }]);
  });

  it('needs the amount when the currency changes, and refuses amounts too large to store', async () => {
    const sub = await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
    });
    await expect(
      h.core.invoke('update_subscription', h.owner, { id: sub.output.id, currency: 'JPY' }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    const yen = await h.core.invoke('update_subscription', h.owner, {
      id: sub.output.id,
      currency: 'JPY',
      amount: '2500',
    });
    expect(yen.output).toMatchObject({ amount: '2500', currency: 'JPY' });
    expect(
      (await h.core.invoke('list_price_changes', h.owner, { subscription_id: sub.output.id }))
        .output.items,
    ).toEqual([]);
    await expect(
      h.core.invoke('mark_charge_paid', h.owner, {
        subscription_id: sub.output.id,
        due_date: '2026-03-02',
        currency: 'EUR',
      }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    const big = await h.core
      .invoke('create_subscription', h.owner, { name: 'Yacht', amount: '30000000.00' })
      .catch((e: unknown) => e);
    expect(big).toMatchObject({ code: 'invalid_input' });
  });

  it('matches category names case-insensitively beyond ASCII, the same on every database', async () => {
    const first = await h.core.invoke('create_subscription', h.owner, {
      name: 'Curso',
      amount: '10',
      category: 'Éducation',
    });
    const second = await h.core.invoke('create_subscription', h.owner, {
      name: 'Libro',
      amount: '5',
      category: 'ÉDUCATION',
    });
    expect(second.output.category?.id).toBe(first.output.category?.id);
  });
});
