import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
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

  it('answers every request still running when its input closes, and writes nothing but protocol messages to stdout', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', entry], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    const stdout = createInterface({ input: child.stdout });
    const initialized = new Promise<void>((resolve) => stdout.once('line', () => resolve()));
    stdout.on('line', (line) => lines.push(line));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'stdio-test', version: '1' },
      },
    });
    await initialized;
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const ids = [2, 3, 4, 5, 6, 7];
    for (const id of ids)
      send({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: {
          name: id % 2 === 0 ? 'create_subscription' : 'list_subscriptions',
          arguments: id % 2 === 0 ? { name: `Service ${id}`, amount: '1.00' } : {},
        },
      });
    // The client is done writing while all six are still running.
    child.stdin.end();
    expect(await exited).toBe(0);
    const messages = lines.map((line) => JSON.parse(line) as { jsonrpc?: string; id?: number });
    expect(messages.every((m) => m.jsonrpc === '2.0')).toBe(true);
    const answered = messages.flatMap((m) => (m.id === undefined ? [] : [m.id]));
    expect(answered.sort()).toEqual([1, ...ids]);
  });
});
