import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createMcpTestHousehold, ERAS, type McpTestHousehold } from './helpers.ts';

interface Preview {
  confirmation_required: true;
  confirmation_id: string;
  expires_at: string;
  op: string;
  changes: number;
}

const textOf = (result: { content?: unknown }): string =>
  (result.content as Array<{ text?: string }>)[0]?.text ?? '';

describe.each(ERAS)('confirming agent changes (%s era)', (era) => {
  let h: McpTestHousehold;
  let subId: string;
  beforeEach(async () => {
    h = await createMcpTestHousehold();
    subId = (
      await h.core.invoke('create_subscription', h.owner, { name: 'Netflix', amount: '15.99' })
    ).output.id;
  });
  afterEach(async () => h.closeAll());

  const amount = async () =>
    (await h.db.knex('subscriptions').where({ id: subId }).first()).amount_minor as number;

  it('answers a financial change by a write token with a preview and a stored confirmation_id, changing nothing', async () => {
    const { id: tokenId, token } = await h.token('write');
    const client = await h.connect(token, era);
    const result = await client.callTool({
      name: 'update_subscription',
      arguments: { id: subId, amount: '17.99' },
    });
    expect(result.isError).toBe(true);
    const preview = result.structuredContent as Preview;
    expect(preview).toMatchObject({
      confirmation_required: true,
      op: 'update_subscription',
      expires_at: '2026-03-02T10:10:00.000Z',
    });
    expect(preview.changes).toBeGreaterThan(0);
    expect(textOf(result)).toContain('amount: 15.99 → 17.99 EUR');
    expect(textOf(result)).toContain(`confirmation_id "${preview.confirmation_id}"`);
    expect(await amount()).toBe(1599);
    const flow = await h.db.knex('flows').where({ id: preview.confirmation_id }).first();
    expect(flow).toMatchObject({
      kind: 'confirmation',
      household_id: h.householdId,
      member_id: h.ownerId,
      used_at: null,
    });
    expect(JSON.parse(flow.payload)).toEqual({
      op: 'update_subscription',
      args: { id: subId, amount: '17.99' },
      token_id: tokenId,
    });
  });

  it('applies a confirmed change once, exactly as previewed, audited with the agent and undoable', async () => {
    const { id: tokenId, token } = await h.token('write', h.owner, 'Laptop agent');
    const client = await h.connect(token, era, { name: 'Claude Desktop' });
    const preview = (
      await client.callTool({ name: 'delete_subscription', arguments: { id: subId } })
    ).structuredContent as Preview;
    expect(await h.db.knex('subscriptions').where({ id: subId }).first()).toBeDefined();
    const applied = await client.callTool({
      name: 'confirm',
      arguments: { confirmation_id: preview.confirmation_id },
    });
    expect(applied.isError).toBeFalsy();
    expect(applied.structuredContent).toMatchObject({
      op: 'delete_subscription',
      result: { id: subId, deleted: true },
    });
    expect(await h.db.knex('subscriptions').where({ id: subId }).first()).toBeUndefined();
    const again = await client.callTool({
      name: 'confirm',
      arguments: { confirmation_id: preview.confirmation_id },
    });
    expect(again).toMatchObject({
      isError: true,
      content: [{ text: `Confirmation ${preview.confirmation_id} has already been applied.` }],
    });

    const activity = await client.callTool({
      name: 'list_activity',
      arguments: { agents_only: true },
    });
    const [entry] = (activity.structuredContent as { items: Array<Record<string, unknown>> }).items;
    // A 2026-era client names itself on every request; a stateless 2025-era one cannot, so the token's name stands in.
    expect(entry).toMatchObject({
      op: 'delete_subscription',
      agent_name: era === 'modern' ? 'Claude Desktop' : 'Laptop agent',
      token_id: tokenId,
      channel: 'mcp',
      actor_kind: 'agent',
      can_undo: true,
    });
    const undone = await client.callTool({ name: 'undo', arguments: { ids: [entry?.id] } });
    expect(undone.isError).toBeFalsy();
    expect(await h.db.knex('subscriptions').where({ id: subId }).first()).toBeDefined();
  });

  it('binds a confirmation to the token that asked for it', async () => {
    const first = await h.connect((await h.token('write')).token, era);
    const second = await h.connect((await h.token('write')).token, era);
    const preview = (
      await first.callTool({ name: 'delete_subscription', arguments: { id: subId } })
    ).structuredContent as Preview;
    const stolen = await second.callTool({
      name: 'confirm',
      arguments: { confirmation_id: preview.confirmation_id },
    });
    expect(stolen).toMatchObject({
      isError: true,
      content: [
        {
          text: `Confirmation ${preview.confirmation_id} wasn't found. Call the tool again to get a new preview.`,
        },
      ],
    });
    expect(await h.db.knex('subscriptions').where({ id: subId }).first()).toBeDefined();
  });

  it('lets a confirmation expire after 10 minutes', async () => {
    const client = await h.connect((await h.token('write')).token, era);
    const preview = (
      await client.callTool({
        name: 'mark_charge_paid',
        arguments: { subscription_id: subId, due_date: '2026-03-02' },
      })
    ).structuredContent as Preview;
    h.clock.now = new Date(h.clock.now.getTime() + 10 * 60_000 + 1);
    const late = await client.callTool({
      name: 'confirm',
      arguments: { confirmation_id: preview.confirmation_id },
    });
    expect(late.isError).toBe(true);
    expect(textOf(late)).toContain('has expired');
    expect(Number((await h.db.knex('charges').count({ n: '*' }))[0]?.n)).toBe(0);
  });

  it('keeps a confirmation usable when applying it fails, and applies nothing', async () => {
    const client = await h.connect((await h.token('write')).token, era);
    const preview = (
      await client.callTool({ name: 'delete_subscription', arguments: { id: subId } })
    ).structuredContent as Preview;
    const luis = await h.addMember('Luis');
    // For a moment the subscription is Luis's private one: for the owner's agent it does not exist.
    await h.db
      .knex('subscriptions')
      .where({ id: subId })
      .update({ member_id: luis.memberId, private: 1 });
    const failed = await client.callTool({
      name: 'confirm',
      arguments: { confirmation_id: preview.confirmation_id },
    });
    expect(failed).toMatchObject({
      isError: true,
      content: [{ text: `Subscription ${subId} wasn't found.` }],
    });
    expect(await h.db.knex('subscriptions').where({ id: subId }).first()).toBeDefined();
    await h.db
      .knex('subscriptions')
      .where({ id: subId })
      .update({ member_id: h.ownerId, private: 0 });
    const applied = await client.callTool({
      name: 'confirm',
      arguments: { confirmation_id: preview.confirmation_id },
    });
    expect(applied.isError).toBeFalsy();
  });

  it('applies ordinary writes directly, and everything directly for a trusted token', async () => {
    const write = await h.connect((await h.token('write')).token, era);
    const created = await write.callTool({
      name: 'create_subscription',
      arguments: { name: 'Spotify', amount: '10.99' },
    });
    expect(created.isError).toBeFalsy();
    const trusted = await h.connect((await h.token('trusted')).token, era);
    expect((await trusted.listTools()).tools.some((t) => t.name === 'confirm')).toBe(false);
    const changed = await trusted.callTool({
      name: 'update_subscription',
      arguments: { id: subId, amount: '17.99' },
    });
    expect(changed.isError).toBeFalsy();
    expect(await amount()).toBe(1799);
  });
});

describe('confirming through elicitation', () => {
  let h: McpTestHousehold;
  let subId: string;
  beforeEach(async () => {
    h = await createMcpTestHousehold();
    subId = (
      await h.core.invoke('create_subscription', h.owner, { name: 'Netflix', amount: '15.99' })
    ).output.id;
  });
  afterEach(async () => h.closeAll());

  it('asks the person through a 2026-era client and applies on yes', async () => {
    const asked: string[] = [];
    const client = await h.connect((await h.token('write')).token, 'modern', {
      elicit: (message) => {
        asked.push(message);
        return { action: 'accept', content: { confirm: true } };
      },
    });
    const result = await client.callTool({
      name: 'update_subscription',
      arguments: { id: subId, amount: '17.99' },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ id: subId, amount: '17.99' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toContain('amount: 15.99 → 17.99 EUR');
    expect(asked[0]).toContain('Apply this change?');
    expect(
      await h.db
        .knex('flows')
        .count({ n: '*' })
        .then((r) => Number(r[0]?.n)),
    ).toBe(0);
  });

  it('applies nothing when the person declines', async () => {
    const client = await h.connect((await h.token('write')).token, 'modern', {
      elicit: () => ({ action: 'decline' }),
    });
    const result = await client.callTool({ name: 'delete_subscription', arguments: { id: subId } });
    expect(result).toMatchObject({
      isError: true,
      content: [{ text: 'Not applied: the person declined. Nothing was changed.' }],
    });
    expect(await h.db.knex('subscriptions').where({ id: subId }).first()).toBeDefined();
  });

  it('falls back to a preview for a stateless 2025-era client, which cannot be asked mid-call', async () => {
    const client = await h.connect((await h.token('write')).token, 'legacy', {
      elicit: () => ({ action: 'accept', content: { confirm: true } }),
    });
    const result = await client.callTool({ name: 'delete_subscription', arguments: { id: subId } });
    expect(result.structuredContent).toMatchObject({ confirmation_required: true });
    expect(await h.db.knex('subscriptions').where({ id: subId }).first()).toBeDefined();
  });
});
