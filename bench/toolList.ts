import { Client, StreamableHTTPClientTransport, type Tool } from '@modelcontextprotocol/client';

import type { Core } from '../core/kernel/core.ts';
import { createMcpFetchHandler } from '../mcp/http.ts';

/**
 * tools/list as an agent receives it: the SDK client connected in process (no port) to Exhale's
 * MCP handler with `token`, in the 2026-07-28 era. What the mcp bench measures and
 * `toolListBreakdown.ts` takes apart.
 */
export async function listToolsWith(core: Core, token: string): Promise<Tool[]> {
  const handler = createMcpFetchHandler({ core });
  const client = new Client(
    { name: 'bench', version: '1' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://localhost/mcp'), {
      fetch: async (url, init) => {
        const headers = new Headers(init?.headers);
        headers.set('host', 'localhost');
        return (
          (await handler(new Request(url, { ...init, headers }))) ??
          new Response(null, { status: 404 })
        );
      },
      authProvider: { token: async () => token },
    }),
  );
  try {
    return (await client.listTools()).tools;
  } finally {
    await client.close();
  }
}

/** The parts of one tool's entry, each in bytes of its JSON as it travels. */
export interface ToolParts {
  name: string;
  /** `name` and `title` with their keys. */
  naming: number;
  description: number;
  input: number;
  output: number;
  annotations: number;
  /** The whole entry, as one element of the list's JSON array. */
  total: number;
}

const bytes = (value: unknown): number =>
  value === undefined ? 0 : Buffer.byteLength(JSON.stringify(value));

/** How many bytes of the list each part of each tool takes (a part's key counted with it). */
export function partsOf(tools: readonly Tool[]): ToolParts[] {
  return tools.map((tool) => {
    const { name, title, description, inputSchema, outputSchema, annotations } = tool;
    const keyed = (key: string, value: unknown): number =>
      value === undefined ? 0 : bytes({ [key]: value }) - 2;
    return {
      name,
      naming: keyed('name', name) + keyed('title', title),
      description: keyed('description', description),
      input: keyed('inputSchema', inputSchema),
      output: keyed('outputSchema', outputSchema),
      annotations: keyed('annotations', annotations),
      total: bytes(tool),
    };
  });
}
