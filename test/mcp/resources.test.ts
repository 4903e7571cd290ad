import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { memberActor, newcomerActor } from '../../core/kernel/actor.ts';
import { noticeFor } from '../../mcp/notifications.ts';
import { createMcpTestHousehold, ERAS, type McpTestHousehold } from './helpers.ts';

const jsonOf = (result: { contents: Array<{ text?: string } | { blob?: string }> }): unknown =>
  JSON.parse((result.contents[0] as { text: string }).text);

describe.each(ERAS)('MCP resources (%s era)', (era) => {
  let h: McpTestHousehold;
  let subId: string;
  beforeEach(async () => {
    h = await createMcpTestHousehold();
    subId = (
      await h.core.invoke('create_subscription', h.owner, {
        name: 'Netflix',
        amount: '15.99',
        category: 'TV',
        tags: ['family'],
      })
    ).output.id;
  });
  afterEach(async () => h.closeAll());

  it('lists the briefing, the household and one resource per entity, with templates', async () => {
    const client = await h.connect((await h.token('read')).token, era);
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toEqual(
      expect.arrayContaining([
        'exhale://context',
        'exhale://household',
        `exhale://subscriptions/${subId}`,
        `exhale://members/${h.ownerId}`,
      ]),
    );
    expect(resources.find((r) => r.uri === `exhale://subscriptions/${subId}`)).toMatchObject({
      title: 'Netflix',
      mimeType: 'application/json',
    });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(
      expect.arrayContaining([
        'exhale://subscriptions/{id}',
        'exhale://members/{id}',
        'exhale://categories/{id}',
        'exhale://tags/{id}',
        'exhale://payment-methods/{id}',
      ]),
    );
  });

  it('reads the live briefing from the get_context op', async () => {
    const client = await h.connect((await h.token('read')).token, era);
    const briefing = jsonOf(await client.readResource({ uri: 'exhale://context' }));
    const { output } = await h.core.invoke('get_context', h.owner, {});
    expect(briefing).toEqual(JSON.parse(JSON.stringify(output)));
    expect(JSON.stringify(briefing)).toContain('Netflix');
  });

  it('reads one entity by its URI, and answers an unknown one with resource-not-found', async () => {
    const client = await h.connect((await h.token('read')).token, era);
    const sub = jsonOf(await client.readResource({ uri: `exhale://subscriptions/${subId}` }));
    expect(sub).toMatchObject({
      id: subId,
      name: 'Netflix',
      amount: '15.99',
      category: { name: 'TV' },
    });
    const household = jsonOf(await client.readResource({ uri: 'exhale://household' }));
    expect(household).toMatchObject({ id: h.householdId, currency: 'EUR' });
    const categories = (await h.core.invoke('list_categories', h.owner, {})).output.items;
    const category = jsonOf(
      await client.readResource({ uri: `exhale://categories/${categories[0]?.id}` }),
    );
    expect(category).toMatchObject({ name: 'TV', subscription_count: 1 });
    await expect(
      client.readResource({ uri: 'exhale://subscriptions/sub_nope' }),
    ).rejects.toMatchObject({ code: -32602 });
    await expect(
      client.readResource({ uri: 'exhale://categories/cat_nope' }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it('completes entity ids by id or name', async () => {
    await h.core.invoke('create_subscription', h.owner, { name: 'Spotify', amount: '10.99' });
    const client = await h.connect((await h.token('read')).token, era);
    const byName = await client.complete({
      ref: { type: 'ref/resource', uri: 'exhale://subscriptions/{id}' },
      argument: { name: 'id', value: 'netf' },
    });
    expect(byName.completion.values).toEqual([subId]);
    const byId = await client.complete({
      ref: { type: 'ref/resource', uri: 'exhale://subscriptions/{id}' },
      argument: { name: 'id', value: 'sub_' },
    });
    expect(byId.completion.values).toHaveLength(2);
  });
});

describe('MCP change notifications', () => {
  let h: McpTestHousehold;
  beforeEach(async () => {
    h = await createMcpTestHousehold();
  });
  afterEach(async () => h.closeAll());

  it('tells a 2026-era listener which resources a committed change touched', async () => {
    const subId = (
      await h.core.invoke('create_subscription', h.owner, { name: 'Netflix', amount: '15.99' })
    ).output.id;
    const client = await h.connect((await h.token('read')).token, 'modern');
    const updated: string[] = [];
    let listChanged = 0;
    client.setNotificationHandler(
      'notifications/resources/updated',
      (n) => void updated.push(n.params.uri),
    );
    client.setNotificationHandler(
      'notifications/resources/list_changed',
      () => void (listChanged += 1),
    );
    const subscription = await client.listen({
      resourcesListChanged: true,
      resourceSubscriptions: ['exhale://context', `exhale://subscriptions/${subId}`],
    });
    expect(subscription.honoredFilter.resourceSubscriptions).toEqual([
      'exhale://context',
      `exhale://subscriptions/${subId}`,
    ]);
    await h.core.invoke('update_subscription', h.owner, { id: subId, name: 'Netflix HD' });
    await expect.poll(() => updated.length).toBe(2);
    expect(updated.sort()).toEqual(['exhale://context', `exhale://subscriptions/${subId}`]);
    expect(listChanged).toBe(1);
    await subscription.close();
  });

  it("does not tell one household about another's changes", async () => {
    const created = await h.core.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Next door',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      owner_name: 'Eva',
    });
    const eva = memberActor(
      {
        id: created.output.member.id,
        household_id: created.output.household.id,
        role: 'owner',
        language: 'en',
      },
      'cli',
    );
    const heard: Record<string, string[]> = { ana: [], eva: [] };
    const listeners = [];
    for (const [who, actor] of [
      ['ana', h.owner],
      ['eva', eva],
    ] as const) {
      const client = await h.connect((await h.token('read', actor)).token, 'modern');
      client.setNotificationHandler(
        'notifications/resources/updated',
        (n) => void heard[who]?.push(n.params.uri),
      );
      listeners.push(await client.listen({ resourceSubscriptions: ['exhale://context'] }));
    }
    await h.core.invoke('update_household', h.owner, { name: 'Renamed' });
    await expect.poll(() => heard.ana?.length).toBe(1);
    await h.core.invoke('update_household', eva, { name: 'Eva home' });
    await expect.poll(() => heard.eva?.length).toBe(1);
    expect(heard).toEqual({ ana: ['exhale://context'], eva: ['exhale://context'] });
    for (const listener of listeners) await listener.close();
  });

  it('maps a change to the briefing, the household and each entity it touched', () => {
    const notice = noticeFor({
      kind: 'changed',
      householdId: 'hh_1',
      auditId: 'act_1',
      op: 'update_subscription',
      actor: { kind: 'agent', memberId: 'mem_1', channel: 'mcp' },
      entities: [
        { table: 'subscriptions', id: 'sub_1' },
        { table: 'price_changes', id: 'pc_1' },
        { table: 'households', id: 'hh_1' },
        { table: 'payment_methods', id: 'pm_1' },
      ],
    });
    expect(notice).toEqual({
      updated: [
        'exhale://context',
        'exhale://subscriptions/sub_1',
        'exhale://household',
        'exhale://payment-methods/pm_1',
      ],
      listChanged: true,
    });
  });
});
