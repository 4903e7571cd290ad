import { Client } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { runMcpStdio } from '../../mcp/stdio.ts';
import { createMcpTestHousehold, type McpTestHousehold } from './helpers.ts';
import { stdioPair } from './streamTransport.ts';

describe('the capabilities each transport advertises', () => {
  let h: McpTestHousehold;
  const stops: Array<() => Promise<unknown>> = [];
  beforeEach(async () => {
    h = await createMcpTestHousehold();
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    await h.closeAll();
  });

  /** A client on an in-process stdio connection served by runMcpStdio as the owner. */
  async function overStdio(mode: 'auto' | 'legacy'): Promise<Client> {
    const pair = stdioPair();
    const served = runMcpStdio({ core: h.core, actor: h.owner, transport: pair.server });
    const client = new Client(
      { name: 'stdio-test', version: '1' },
      { versionNegotiation: { mode } },
    );
    await client.connect(pair.client);
    stops.push(async () => {
      await client.close();
      await served;
    });
    return client;
  }

  it('promises a stateless 2025-era HTTP client no resource notifications: it has no stream to get them on', async () => {
    const { token } = await h.token('read');
    const client = await h.connect(token, 'legacy');
    const resources = client.getServerCapabilities()?.resources;
    expect(resources).toEqual({ listChanged: false });
  });

  it('promises a 2026-era HTTP client list changes and subscriptions: its listen stream carries them', async () => {
    const { token } = await h.token('read');
    const client = await h.connect(token, 'modern');
    expect(client.getServerCapabilities()?.resources).toEqual({
      subscribe: true,
      listChanged: true,
    });
  });

  it.each(['legacy', 'auto'] as const)(
    'promises list changes and subscriptions over stdio, a live connection (%s negotiation)',
    async (mode) => {
      const client = await overStdio(mode);
      expect(client.getServerCapabilities()?.resources).toEqual({
        subscribe: true,
        listChanged: true,
      });
    },
  );
});
