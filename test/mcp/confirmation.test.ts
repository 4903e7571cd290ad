import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { CONFIRMATION_META_KEY } from '../../mcp/confirm.ts';
import { createMcpTestHousehold, ERAS, type McpTestHousehold } from './helpers.ts';

interface Preview {
  confirmation_id: string;
  expires_at: string;
  op: string;
}

const textOf = (result: { content?: unknown }): string =>
  (result.content as Array<{ text?: string }>)[0]?.text ?? '';

/** The confirmation a preview result names in its _meta (its text says the same). */
const previewOf = (result: { _meta?: unknown }): Preview =>
  (result._meta as Record<string, Preview>)[CONFIRMATION_META_KEY] as Preview;

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
    // No structuredContent: a preview is not the tool's output, and clients check it against the schema.
    expect(result.structuredContent).toBeUndefined();
    const preview = previewOf(result);
    expect(preview).toMatchObject({
      op: 'update_subscription',
      expires_at: '2026-03-02T10:10:00.000Z',
    });
    expect(textOf(result)).toContain('Change Netflix?');
    expect(textOf(result)).toContain('15.99 EUR → 17.99 EUR');
    expect(textOf(result)).toMatch(/It would change [1-9]\d* record\(s\)/);
    expect(textOf(result)).not.toMatch(/\{[a-z_]+\}/);
    expect(textOf(result)).toContain(`confirmation_id "${preview.confirmation_id}"`);
    expect(await amount()).toBe(1599);
    // A pending change of the MCP surface (core/pending), bound to the member and the token.
    const flow = await h.db.knex('flows').where({ id: preview.confirmation_id }).first();
    expect(flow).toMatchObject({
      kind: 'pending_mcp',
      household_id: h.householdId,
      member_id: h.ownerId,
      used_at: null,
    });
    expect(JSON.parse(flow.payload)).toEqual({
      op: 'update_subscription',
      args: { id: subId, amount: '17.99' },
      token_id: tokenId,
      channel: 'mcp',
      changes: expect.any(String),
      card: {
        title: 'Change Netflix?',
        lines: [expect.stringContaining('15.99 EUR → 17.99 EUR'), 'Price history: 1 added'],
        destructive: false,
      },
      status: 'pending',
      audit_id: null,
      decided_at: null,
      undone_at: null,
    });
  });

  it('applies a confirmed change once, exactly as previewed, audited with the agent and undoable', async () => {
    const { id: tokenId, token } = await h.token('write', h.owner, 'Laptop agent');
    const client = await h.connect(token, era, { name: 'Claude Desktop' });
    const preview = previewOf(
      await client.callTool({ name: 'delete_subscription', arguments: { id: subId } }),
    );
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
    // Undo is confirmed too: undoing can delete (here it brings the subscription back).
    const undoPreview = previewOf(
      await client.callTool({ name: 'undo', arguments: { ids: [entry?.id] } }),
    );
    expect(undoPreview.op).toBe('undo');
    const undone = await client.callTool({
      name: 'confirm',
      arguments: { confirmation_id: undoPreview.confirmation_id },
    });
    expect(undone.isError).toBeFalsy();
    expect(await h.db.knex('subscriptions').where({ id: subId }).first()).toBeDefined();
  });

  it('binds a confirmation to the token that asked for it', async () => {
    const first = await h.connect((await h.token('write')).token, era);
    const second = await h.connect((await h.token('write')).token, era);
    const preview = previewOf(
      await first.callTool({ name: 'delete_subscription', arguments: { id: subId } }),
    );
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
    const preview = previewOf(
      await client.callTool({
        name: 'mark_charge_paid',
        arguments: { subscription_id: subId, due_date: '2026-03-02' },
      }),
    );
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
    const preview = previewOf(
      await client.callTool({ name: 'delete_subscription', arguments: { id: subId } }),
    );
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

  it('applies nothing when the records changed since the preview, and the preview cannot be used again', async () => {
    const client = await h.connect((await h.token('write')).token, era);
    const category = (await h.core.invoke('create_category', h.owner, { name: 'Streaming' })).output
      .id;
    await h.core.invoke('update_subscription', h.owner, { id: subId, category_id: category });
    const preview = previewOf(
      await client.callTool({ name: 'delete_category', arguments: { id: category } }),
    );
    // Someone files another subscription under the category before the person says yes.
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Disney+',
      amount: '8.99',
      category_id: category,
    });
    const refused = await client.callTool({
      name: 'confirm',
      arguments: { confirmation_id: preview.confirmation_id },
    });
    expect(refused).toMatchObject({
      isError: true,
      content: [
        {
          text: 'The change was not applied: the records it touches have changed since it was shown. Look at it again before applying it.',
        },
      ],
    });
    expect(await h.db.knex('categories').where({ id: category }).first()).toBeDefined();
    const again = await client.callTool({
      name: 'confirm',
      arguments: { confirmation_id: preview.confirmation_id },
    });
    expect(textOf(again)).toContain("wasn't found. Call the tool again to get a new preview.");
  });

  it("asks before an agent's undo, which can delete, and undoes only the agent's own last change", async () => {
    const mineToken = await h.token('write', h.owner, 'Agent A');
    const mine = await h.connect(mineToken.token, era);
    const theirs = await h.connect((await h.token('trusted', h.owner, 'Agent B')).token, era);
    await mine.callTool({
      name: 'create_subscription',
      arguments: { name: 'Mine', amount: '1.00' },
    });
    await theirs.callTool({
      name: 'create_subscription',
      arguments: { name: 'Theirs', amount: '2.00' },
    });
    const asked = await mine.callTool({ name: 'undo', arguments: {} });
    expect(asked.isError).toBe(true);
    expect(textOf(asked)).toContain('Mine');
    expect(await h.db.knex('subscriptions').where({ name: 'Mine' }).first()).toBeDefined();
    await mine.callTool({
      name: 'confirm',
      arguments: { confirmation_id: previewOf(asked).confirmation_id },
    });
    expect(await h.db.knex('subscriptions').where({ name: 'Mine' }).first()).toBeUndefined();
    expect(await h.db.knex('subscriptions').where({ name: 'Theirs' }).first()).toBeDefined();
  });

  it('applies ordinary writes directly, and everything directly for a trusted token', async () => {
    const write = await h.connect((await h.token('write')).token, era);
    const created = await write.callTool({
      name: 'create_subscription',
      arguments: { name: 'Spotify', amount: '10.99' },
    });
    expect(created.isError).toBeFalsy();
    // The id to undo it is data too, not only words.
    const activity = (created._meta as Record<string, string>)['exhale/activity_id'];
    expect(activity).toMatch(/^act_/);
    expect(textOf(created)).toContain(activity);
    // Changing what is not charged (notes, a name) needs no confirmation; the amount does.
    const noted = await write.callTool({
      name: 'update_subscription',
      arguments: { id: subId, notes: 'shared with Luis', name: 'Netflix Premium' },
    });
    expect(noted.isError).toBeFalsy();
    expect(noted.structuredContent).toMatchObject({ notes: 'shared with Luis' });
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
    expect(asked[0]).toContain('15.99 EUR → 17.99 EUR');
    expect(asked[0]).toContain('Apply this change?');
    expect(asked[0]).not.toMatch(/\{[a-z_]+\}/);
    // The question named a stored preview, now used: it cannot be answered twice.
    const flows = await h.db.knex('flows').where({ kind: 'pending_mcp' });
    expect(flows).toHaveLength(1);
    expect(flows[0].used_at).not.toBeNull();
  });

  it('ignores an answer to a question it never asked, and asks', async () => {
    const { token } = await h.token('write');
    const modern = '2026-07-28';
    const response = await h.send('/mcp', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': modern,
        'mcp-method': 'tools/call',
        'mcp-name': 'delete_subscription',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'delete_subscription',
          arguments: { id: subId },
          inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': modern,
            'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
            'io.modelcontextprotocol/clientInfo': { name: 'sly', version: '1' },
          },
        },
      }),
    });
    const body = (await response.json()) as {
      result: {
        resultType?: string;
        inputRequests?: Record<string, unknown>;
        requestState?: string;
      };
    };
    expect(body.result.resultType).toBe('input_required');
    expect(Object.keys(body.result.inputRequests ?? {})).toEqual(['confirm']);
    expect(body.result.requestState).toMatch(/^cfm_/);
    expect(await h.db.knex('subscriptions').where({ id: subId }).first()).toBeDefined();
  });

  it('applies nothing when the records changed while the person was being asked', async () => {
    const client = await h.connect((await h.token('write')).token, 'modern', {
      elicit: async () => {
        await h.core.invoke('update_subscription', h.owner, { id: subId, amount: '16.99' });
        return { action: 'accept', content: { confirm: true } };
      },
    });
    const result = await client.callTool({ name: 'delete_subscription', arguments: { id: subId } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('have changed since it was shown');
    expect(await h.db.knex('subscriptions').where({ id: subId }).first()).toBeDefined();
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
    expect(previewOf(result)).toMatchObject({ op: 'delete_subscription' });
    expect(await h.db.knex('subscriptions').where({ id: subId }).first()).toBeDefined();
  });
});
