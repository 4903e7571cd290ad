import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Actor } from '../../core/kernel/actor.ts';
import { createMcpTestHousehold, ERAS, type McpTestHousehold } from './helpers.ts';

describe.each(ERAS)('privacy between members over MCP (%s era)', (era) => {
  let h: McpTestHousehold;
  let luis: Actor;
  let secretId: string;
  let sharedId: string;
  beforeEach(async () => {
    h = await createMcpTestHousehold();
    luis = await h.addMember('Luis');
    secretId = (
      await h.core.invoke('create_subscription', luis, {
        name: 'Secret gym',
        amount: '40',
        private: true,
      })
    ).output.id;
    sharedId = (
      await h.core.invoke('create_subscription', h.owner, { name: 'Netflix', amount: '15.99' })
    ).output.id;
  });
  afterEach(async () => h.closeAll());

  it("keeps another member's private subscription out of tools, resources and completions", async () => {
    const client = await h.connect((await h.token('trusted')).token, era);
    const listed = await client.callTool({ name: 'list_subscriptions', arguments: {} });
    expect(
      (listed.structuredContent as { items: Array<{ id: string }> }).items.map((s) => s.id),
    ).toEqual([sharedId]);
    const got = await client.callTool({ name: 'get_subscription', arguments: { id: secretId } });
    expect(got).toMatchObject({
      isError: true,
      content: [{ text: `Subscription ${secretId} wasn't found.` }],
    });
    const changed = await client.callTool({
      name: 'update_subscription',
      arguments: { id: secretId, name: 'Mine now' },
    });
    expect(changed.isError).toBe(true);

    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain(`exhale://subscriptions/${sharedId}`);
    expect(resources.map((r) => r.uri)).not.toContain(`exhale://subscriptions/${secretId}`);
    await expect(
      client.readResource({ uri: `exhale://subscriptions/${secretId}` }),
    ).rejects.toMatchObject({ code: -32602 });
    const context = await client.readResource({ uri: 'exhale://context' });
    expect(JSON.stringify(context)).not.toContain('Secret gym');
    const completion = await client.complete({
      ref: { type: 'ref/resource', uri: 'exhale://subscriptions/{id}' },
      argument: { name: 'id', value: 'sub_' },
    });
    expect(completion.completion.values).toEqual([sharedId]);
    expect(await h.db.knex('subscriptions').where({ id: secretId }).first()).toMatchObject({
      name: 'Secret gym',
    });
  });

  it("shows the member's own private subscription to their agent", async () => {
    const client = await h.connect((await h.token('read', luis)).token, era);
    const got = await client.callTool({ name: 'get_subscription', arguments: { id: secretId } });
    expect(got.structuredContent).toMatchObject({ id: secretId, private: true });
    const read = await client.readResource({ uri: `exhale://subscriptions/${secretId}` });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({
      name: 'Secret gym',
    });
  });

  it("keeps a member's agent changes to their private subscription out of others' activity", async () => {
    const mine = await h.connect((await h.token('trusted', luis)).token, era);
    expect(
      (
        await mine.callTool({
          name: 'update_subscription',
          arguments: { id: secretId, notes: 'hidden' },
        })
      ).isError,
    ).toBeFalsy();
    const owner = await h.connect((await h.token('read')).token, era);
    const activity = await owner.callTool({ name: 'list_activity', arguments: {} });
    expect(JSON.stringify(activity.structuredContent)).not.toContain('Secret gym');
  });
});
