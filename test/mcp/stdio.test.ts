import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';

const entry = fileURLToPath(new URL('./stdioServer.ts', import.meta.url));

function transport(env: Record<string, string> = {}): StdioClientTransport {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
  return new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', entry],
    env: { ...inherited, ...env },
    stderr: 'pipe',
  });
}

describe('exhale mcp over stdio', () => {
  const clients: Client[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
  });

  it.each([
    ['auto', 'modern'],
    ['legacy', 'legacy'],
  ] as const)('serves the same tools as the local owner (%s negotiation)', async (mode, era) => {
    const client = new Client(
      { name: 'stdio-test', version: '1' },
      { versionNegotiation: { mode } },
    );
    clients.push(client);
    await client.connect(transport());
    expect(client.getProtocolEra()).toBe(era);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['list_subscriptions', 'update_household', 'delete_subscription']),
    );
    const listed = await client.callTool({ name: 'list_subscriptions', arguments: {} });
    expect(
      (listed.structuredContent as { items: Array<{ name: string }> }).items.map((s) => s.name),
    ).toEqual(['Netflix']);
    const created = await client.callTool({
      name: 'create_subscription',
      arguments: { name: 'Spotify', amount: '10.99' },
    });
    expect(created.isError).toBeFalsy();
    const activity = await client.callTool({
      name: 'list_activity',
      arguments: { agents_only: true },
    });
    expect(
      (activity.structuredContent as { items: Array<Record<string, unknown>> }).items[0],
    ).toMatchObject({
      agent_name: 'stdio-test',
      channel: 'mcp',
      actor_kind: 'agent',
    });
    const context = await client.readResource({ uri: 'exhale://context' });
    expect(JSON.stringify(context.contents)).toContain('Spotify');
  });

  it("acts within a token's scope when given one", async () => {
    const client = new Client({ name: 'stdio-test', version: '1' });
    clients.push(client);
    await client.connect(transport({ EXHALE_TEST_TOKEN_SCOPE: 'read' }));
    const { tools } = await client.listTools();
    for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
  });

  it('tells a 2025-era client about the resources it subscribed to when they change', async () => {
    const client = new Client(
      { name: 'stdio-test', version: '1' },
      { versionNegotiation: { mode: 'legacy' } },
    );
    clients.push(client);
    await client.connect(transport());
    const updated: string[] = [];
    client.setNotificationHandler(
      'notifications/resources/updated',
      (n) => void updated.push(n.params.uri),
    );
    await client.subscribeResource({ uri: 'exhale://household' });
    await client.callTool({ name: 'update_household', arguments: { name: 'Renamed home' } });
    await expect.poll(() => updated).toEqual(['exhale://household']);
  });
});
