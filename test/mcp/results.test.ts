import { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { IDENTITY } from '../../mcp/identity.ts';
import { runMcpStdio } from '../../mcp/stdio.ts';
import { createMcpTestHousehold, type McpTestHousehold } from './helpers.ts';
import { stdioPair } from './streamTransport.ts';

const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** The serverInfo a result names in its _meta, if any. */
function named(result: { _meta?: Record<string, unknown> }): unknown {
  return result._meta?.[SERVER_INFO];
}

describe('what each result says about the server', () => {
  let h: McpTestHousehold;
  const stops: Array<() => Promise<unknown>> = [];
  beforeEach(async () => {
    h = await createMcpTestHousehold({ publicUrl: 'https://exhale.example.com' });
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    await h.closeAll();
  });

  it('names the server by name and version only in every 2026-era result Exhale builds, over HTTP; the whole identity comes with server/discover', async () => {
    const { token } = await h.token('write');
    const client = await h.connect(token, 'modern');
    expect(client.getServerVersion()).toMatchObject({
      name: 'exhale',
      description: IDENTITY.description,
      icons: [{ src: 'https://exhale.example.com/mcp/icon.svg' }],
    });
    const small = { name: 'exhale', version: IDENTITY.version };
    const results = [
      await client.callTool({ name: 'list_subscriptions', arguments: {} }),
      await client.callTool({ name: 'create_tag', arguments: { name: 'kids' } }),
      await client.callTool({ name: 'get_subscription', arguments: { id: 'sub_none' } }),
      // A destructive change without elicitation: a preview.
      await client.callTool({ name: 'delete_tag', arguments: { id: 'tag_none' } }),
      await client.callTool({ name: 'confirm', arguments: { confirmation_id: 'pc_none' } }),
      await client.readResource({ uri: 'exhale://context' }),
      await client.readResource({ uri: 'exhale://household' }),
      await client.getPrompt({ name: 'find_savings', arguments: {} }),
    ];
    for (const result of results) expect(named(result), JSON.stringify(result)).toEqual(small);
  });

  it('keeps a 2026-era stdio result small (no inline icon, no description), and the icon and description in server/discover', async () => {
    const pair = stdioPair();
    const served = runMcpStdio({ core: h.core, actor: h.owner, transport: pair.server });
    const client = new Client(
      { name: 'stdio-test', version: '1' },
      { versionNegotiation: { mode: 'auto' } },
    );
    await client.connect(pair.client);
    stops.push(async () => {
      await client.close();
      await served;
    });
    expect(client.getProtocolEra()).toBe('modern');
    expect(client.getServerVersion()).toMatchObject({
      description: IDENTITY.description,
      icons: [{ src: expect.stringMatching(/^data:image\/svg\+xml;base64,/) as unknown }],
    });
    const before = pair.written().length;
    const result = await client.callTool({ name: 'get_household', arguments: {} });
    expect(named(result)).toEqual({ name: 'exhale', version: IDENTITY.version });
    const line = pair.written().slice(before);
    expect(line).not.toContain('base64');
    expect(line).not.toContain(IDENTITY.description.slice(0, 40));
    // The household itself (its name, currency, zone) and little more.
    expect(line.length).toBeLessThan(JSON.stringify(result.structuredContent).length * 2 + 400);
  });

  it('leaves 2025-era results as that era has them (no serverInfo), with the whole identity in initialize', async () => {
    const { token } = await h.token('write');
    const client = await h.connect(token, 'legacy');
    expect(client.getServerVersion()).toMatchObject({ description: IDENTITY.description });
    const result = await client.callTool({ name: 'list_subscriptions', arguments: {} });
    expect(named(result)).toBeUndefined();
  });
});
