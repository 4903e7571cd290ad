import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Actor } from '../../../core/kernel/actor.ts';
import type { CoreEvent } from '../../../core/kernel/events.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';

const count = async (query: PromiseLike<Array<Record<string, unknown>>>) =>
  Number(Object.values((await query)[0] ?? {})[0]);

describe('invoke', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('audits a write with who, through which channel and agent, and publishes one change event after commit', async () => {
    const events: CoreEvent[] = [];
    h.core.bus.subscribe((e) => events.push(e));
    const agent: Actor = {
      ...h.owner,
      kind: 'agent',
      scope: 'write',
      channel: 'mcp',
      agent: { name: 'Claude Desktop', tokenId: 'tok_1' },
    };
    const { auditId } = await h.core.invoke('create_subscription', agent, {
      name: 'Netflix',
      amount: '9.99',
    });
    const row = await h.db.knex('audit_entries').where({ id: auditId }).first();
    expect(row).toMatchObject({
      op: 'create_subscription',
      channel: 'mcp',
      agent_name: 'Claude Desktop',
      token_id: 'tok_1',
      actor_kind: 'agent',
      member_id: h.ownerId,
      summary: 'Added Netflix',
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      kind: 'changed',
      op: 'create_subscription',
      householdId: h.householdId,
      auditId,
    });
    const activity = await h.core.invoke('list_activity', h.owner, { agents_only: true });
    expect(activity.output.items[0]).toMatchObject({
      agent_name: 'Claude Desktop',
      member_name: 'Ana',
    });
  });

  it('writes nothing and publishes nothing for a read or a dry run', async () => {
    const events: CoreEvent[] = [];
    h.core.bus.subscribe((e) => events.push(e));
    await h.core.invoke('list_subscriptions', h.owner, {});
    const dry = await h.core.invoke(
      'create_subscription',
      h.owner,
      { name: 'Netflix', amount: '9.99' },
      { dryRun: true },
    );
    expect(dry.output.name).toBe('Netflix');
    expect(dry.changes.map((c) => c.table)).toEqual(['subscriptions']);
    expect(events).toEqual([]);
    expect(await count(h.db.knex('subscriptions').count({ n: '*' }))).toBe(0);
    expect(
      await count(
        h.db.knex('audit_entries').where({ op: 'create_subscription' }).count({ n: '*' }),
      ),
    ).toBe(0);
  });

  it('enforces scope: a read token cannot write, a write token cannot manage members', async () => {
    const reader: Actor = { ...h.owner, kind: 'agent', scope: 'read', channel: 'mcp' };
    await expect(
      h.core.invoke('create_subscription', reader, { name: 'X', amount: '1' }),
    ).rejects.toMatchObject({ code: 'insufficient_scope' });
    const writer: Actor = { ...h.owner, kind: 'agent', scope: 'write', channel: 'mcp' };
    await expect(h.core.invoke('create_invite', writer, {})).rejects.toMatchObject({
      code: 'insufficient_scope',
    });
  });

  it("keeps a member's private subscription out of everyone else's reads, activity and undo", async () => {
    const luis = await h.addMember('Luis');
    const gym = await h.core.invoke('create_subscription', luis, {
      name: 'Gym',
      amount: '39.90',
      private: true,
    });
    expect((await h.core.invoke('list_subscriptions', h.owner, {})).output.total).toBe(0);
    expect((await h.core.invoke('list_subscriptions', luis, {})).output.total).toBe(1);
    await expect(
      h.core.invoke('get_subscription', h.owner, { id: gym.output.id }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      h.core.invoke('delete_subscription', h.owner, { id: gym.output.id }),
    ).rejects.toMatchObject({ code: 'not_found' });
    const ownerActivity = await h.core.invoke('list_activity', h.owner, {});
    expect(ownerActivity.output.items.map((e) => e.summary)).not.toContain('Added Gym');
    await expect(h.core.invoke('undo', h.owner, { ids: [gym.auditId] })).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it("shows a shared audience (a group chat) no private subscription, not even the speaker's own", async () => {
    const luis = await h.addMember('Luis');
    const gym = await h.core.invoke('create_subscription', luis, {
      name: 'Gym',
      amount: '39.90',
      private: true,
    });
    await h.core.invoke('create_subscription', luis, { name: 'Netflix', amount: '9.99' });
    const inGroup: Actor = { ...luis, audience: 'shared' };
    const list = await h.core.invoke('list_subscriptions', inGroup, {});
    expect(list.output.items.map((s) => s.name)).toEqual(['Netflix']);
    await expect(
      h.core.invoke('get_subscription', inGroup, { id: gym.output.id }),
    ).rejects.toMatchObject({ code: 'not_found' });
    const totals = await h.core.invoke('get_totals', inGroup, {});
    expect(totals.output.totals.monthly).toBe('9.99');
    const activity = await h.core.invoke('list_activity', inGroup, {});
    expect(activity.output.items.map((e) => e.summary)).not.toContain('Added Gym');
  });

  it('rolls back every row of a write that fails half-way', async () => {
    const a = await h.core.invoke('create_subscription', h.owner, { name: 'A', amount: '1' });
    const error = await h.core
      .invoke('bulk_update_subscriptions', h.owner, {
        ids: [a.output.id, 'sub_missing'],
        change: { action: 'set_category', category: 'New' },
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'not_found' });
    expect(await count(h.db.knex('categories').count({ n: '*' }))).toBe(0);
  });

  it('refuses a removed member acting with stale credentials', async () => {
    const luis = await h.addMember('Luis');
    await h.core.invoke('remove_member', h.owner, { id: luis.memberId });
    await expect(h.core.invoke('list_subscriptions', luis, {})).rejects.toMatchObject({
      code: 'forbidden',
    });
  });
});
