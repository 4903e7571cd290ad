import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Actor } from '../../../core/kernel/actor.ts';
import { type PendingChanges, pendingChanges } from '../../../core/pending/index.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';
import { agentOf } from './helpers.ts';

const TTL = 30 * 60_000;
const UNDO = 3_600_000;

describe('the pending-change service', () => {
  let h: TestHousehold;
  let owner: Actor;
  let web: PendingChanges;
  let subId: string;
  beforeEach(async () => {
    h = await createTestHousehold();
    owner = { ...h.owner, channel: 'web' };
    web = pendingChanges(h.core, { surface: 'web', ttlMs: TTL, undoWindowMs: UNDO });
    subId = (
      await h.core.invoke('create_subscription', h.owner, { name: 'Netflix', amount: '15.99' })
    ).output.id;
  });
  afterEach(async () => h.close());

  const amount = async (): Promise<number> =>
    ((await h.db.knex('subscriptions').where({ id: subId }).first()) as { amount_minor: number })
      .amount_minor;
  const raise = () =>
    web.prepare(owner, h.core.op('update_subscription'), { id: subId, amount: '17.99' });
  const auditsOf = async (op: string): Promise<number> =>
    Number((await h.db.knex('audit_entries').where({ op }).count({ n: '*' }))[0]?.n);

  it('prepares a change from a dry run: Exhale writes the card, nothing is applied, the row binds it', async () => {
    const { change, preview } = await raise();
    expect(preview.card).toEqual({
      title: 'Change Netflix?',
      lines: ['✏️ Netflix: amount 15.99 EUR → 17.99 EUR', 'Price history: 1 added'],
      destructive: false,
    });
    expect(change).toMatchObject({
      householdId: h.householdId,
      memberId: h.ownerId,
      usedAt: null,
      expiresAt: new Date(h.clock.now.getTime() + TTL).toISOString(),
      payload: {
        op: 'update_subscription',
        args: { id: subId, amount: '17.99' },
        token_id: null,
        channel: 'web',
        changes: preview.fingerprint,
        card: preview.card,
        status: 'pending',
      },
    });
    expect((await h.db.knex('flows').where({ id: change.id }).first()).kind).toBe('pending_web');
    expect(await amount()).toBe(1599);
    expect(await auditsOf('update_subscription')).toBe(0);
  });

  it('prepares only writes', async () => {
    await expect(web.prepare(owner, h.core.op('list_subscriptions'), {})).rejects.toThrow(
      /is a read/,
    );
  });

  it('confirms once, exactly as previewed, audited, and marks the change applied with its audit entry', async () => {
    const { change } = await raise();
    const applied = await web.confirm(owner, change.id);
    expect(await amount()).toBe(1799);
    expect(applied.result.auditId).toMatch(/^act_/);
    expect(applied.undoUntil).toBe(new Date(h.clock.now.getTime() + UNDO).toISOString());
    const stored = await web.get(owner, change.id);
    expect(stored.usedAt).toBe(h.clock.now.toISOString());
    expect(stored.payload).toMatchObject({
      status: 'confirmed',
      audit_id: applied.result.auditId,
      decided_at: h.clock.now.toISOString(),
    });
    await expect(web.confirm(owner, change.id)).rejects.toMatchObject({
      code: 'conflict',
      key: 'pending.used',
    });
    expect(await auditsOf('update_subscription')).toBe(1);
  });

  it('refuses a confirm by another member, on another surface or with another token, as not found', async () => {
    const { change } = await raise();
    const luis = await h.addMember('Luis');
    await expect(web.confirm(luis, change.id)).rejects.toMatchObject({
      code: 'not_found',
      key: 'pending.not_found',
    });
    const chat = pendingChanges(h.core, { surface: 'chat', ttlMs: TTL });
    await expect(chat.confirm(owner, change.id)).rejects.toMatchObject({ code: 'not_found' });
    // An agent's change is its token's: neither another token nor the member in person may apply it.
    const mcp = pendingChanges(h.core, { surface: 'mcp', ttlMs: TTL });
    const asked = await mcp.prepare(agentOf(h.owner, 'tok_a'), h.core.op('update_subscription'), {
      id: subId,
      amount: '18.99',
    });
    expect(asked.change.payload.token_id).toBe('tok_a');
    await expect(mcp.confirm(agentOf(h.owner, 'tok_b'), asked.change.id)).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      mcp.confirm({ ...h.owner, channel: 'mcp' }, asked.change.id),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(await amount()).toBe(1599);
    await mcp.confirm(agentOf(h.owner, 'tok_a'), asked.change.id);
    expect(await amount()).toBe(1899);
  });

  it('answers an unknown id, and a row whose payload no longer parses, as not found', async () => {
    await expect(web.confirm(owner, 'pnd_nope')).rejects.toMatchObject({ code: 'not_found' });
    const { change } = await raise();
    await h.db
      .knex('flows')
      .where({ id: change.id })
      .update({ payload: JSON.stringify({ op: 'update_subscription', args: {} }) });
    await expect(web.confirm(owner, change.id)).rejects.toMatchObject({
      code: 'not_found',
      key: 'pending.not_found',
    });
    expect(await amount()).toBe(1599);
  });

  it('discards a change: nothing applies, and it can be neither confirmed nor discarded again', async () => {
    const { change } = await raise();
    const discarded = await web.discard(owner, change.id);
    expect(discarded.payload).toMatchObject({ status: 'discarded', audit_id: null });
    await expect(web.confirm(owner, change.id)).rejects.toMatchObject({ key: 'pending.used' });
    await expect(web.discard(owner, change.id)).rejects.toMatchObject({ key: 'pending.used' });
    expect(await amount()).toBe(1599);
  });

  it('lets a change expire after its time', async () => {
    const { change } = await raise();
    h.clock.now = new Date(h.clock.now.getTime() + TTL);
    await expect(web.confirm(owner, change.id)).rejects.toMatchObject({
      code: 'conflict',
      key: 'pending.expired',
    });
    expect(await amount()).toBe(1599);
    expect((await web.get(owner, change.id)).usedAt).toBeNull();
  });

  it('speaks each surface’s own refusals', async () => {
    const worded = pendingChanges(h.core, {
      surface: 'web',
      ttlMs: TTL,
      refusals: { used: 'assistant.proposal.used' },
    });
    const { change } = await raise();
    await worded.discard(owner, change.id);
    await expect(worded.confirm(owner, change.id)).rejects.toMatchObject({
      key: 'assistant.proposal.used',
    });
  });

  it('keeps a change confirmable when applying it fails, and applies it once the cause is gone', async () => {
    const { change } = await raise();
    const luis = await h.addMember('Luis');
    // For a moment the subscription is Luis's private one: for Ana it does not exist.
    await h.db
      .knex('subscriptions')
      .where({ id: subId })
      .update({ member_id: luis.memberId, private: 1 });
    await expect(web.confirm(owner, change.id)).rejects.toMatchObject({ code: 'not_found' });
    expect((await web.get(owner, change.id)).usedAt).toBeNull();
    await h.db
      .knex('subscriptions')
      .where({ id: subId })
      .update({ member_id: h.ownerId, private: 0 });
    await web.confirm(owner, change.id);
    expect(await amount()).toBe(1799);
  });

  it('spends a change whose records moved since its preview: nothing applies, only a new preview can be confirmed', async () => {
    const { change } = await raise();
    await h.core.invoke('update_subscription', h.owner, { id: subId, amount: '16.99' });
    await expect(web.confirm(owner, change.id)).rejects.toMatchObject({
      code: 'conflict',
      key: 'errors.preview_changed',
    });
    expect(await amount()).toBe(1699);
    const spent = await web.get(owner, change.id);
    expect(spent.usedAt).not.toBeNull();
    expect(spent.payload.status).toBe('failed');
    await expect(web.confirm(owner, change.id)).rejects.toMatchObject({ key: 'pending.spent' });
    const fresh = await raise();
    await web.confirm(owner, fresh.change.id);
    expect(await amount()).toBe(1799);
  });

  it('undoes what it applied once, within its window', async () => {
    const { change } = await raise();
    await expect(web.undo(owner, change.id)).rejects.toMatchObject({
      code: 'conflict',
      key: 'pending.not_applied',
    });
    await web.confirm(owner, change.id);
    const luis = await h.addMember('Luis');
    await expect(web.undo(luis, change.id)).rejects.toMatchObject({ code: 'not_found' });
    const undone = await web.undo(owner, change.id);
    expect(undone.undone).toBeGreaterThan(0);
    expect(undone.change.payload.undone_at).toBe(h.clock.now.toISOString());
    expect(await amount()).toBe(1599);
    expect((await web.get(owner, change.id)).payload.undone_at).toBe(h.clock.now.toISOString());
    await expect(web.undo(owner, change.id)).rejects.toMatchObject({
      code: 'conflict',
      key: 'errors.already_undone',
    });
  });

  it('refuses an Undo after its window', async () => {
    const { change } = await raise();
    await web.confirm(owner, change.id);
    h.clock.now = new Date(h.clock.now.getTime() + UNDO + 1);
    await expect(web.undo(owner, change.id)).rejects.toMatchObject({
      code: 'conflict',
      key: 'pending.undo_expired',
    });
    expect(await amount()).toBe(1799);
  });

  it("lists a member's recent changes on its surface, newest first", async () => {
    const first = await raise();
    h.clock.now = new Date(h.clock.now.getTime() + 1_000);
    const second = await web.prepare(owner, h.core.op('pause_subscription'), { id: subId });
    await pendingChanges(h.core, { surface: 'chat', ttlMs: TTL }).prepare(
      owner,
      h.core.op('pause_subscription'),
      { id: subId },
    );
    const recent = await web.recent(h.ownerId, new Date(0), 10);
    expect(recent.map((c) => c.id)).toEqual([second.change.id, first.change.id]);
  });

  it('refuses an Undo window longer than its rows are kept', () => {
    expect(() =>
      pendingChanges(h.core, { surface: 'web', ttlMs: TTL, undoWindowMs: 2 * 86_400_000 }),
    ).toThrow(/outlives/);
  });
});
