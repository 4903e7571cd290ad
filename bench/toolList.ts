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

/** Keywords that bound or shape a value without saying what it is: what `wordsOnly` drops. */
const BOUNDS = new Set([
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'pattern',
  'format',
  'default',
]);

/** `schema` without BOUNDS and without `additionalProperties: false`, at every depth. */
function unbounded(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(unbounded);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(
        ([key, value]) => !BOUNDS.has(key) && !(key === 'additionalProperties' && value === false),
      )
      // `properties` maps field names (one may be called "format") to schemas: every name kept.
      .map(([key, value]) =>
        key === 'properties' && typeof value === 'object' && value !== null
          ? [key, Object.fromEntries(Object.entries(value).map(([f, s]) => [f, unbounded(s)]))]
          : [key, unbounded(value)],
      ),
  );
}

/**
 * The list cut to what a model needs to call each tool and nothing more: names, descriptions and
 * input schemas with their field names, types, enums, required lists and field descriptions, but
 * no title, output schema, annotations, bounds, patterns, formats or defaults. The least the list
 * could be without rewording or dropping a description: a floor for the tool-list size target.
 */
export function wordsOnly(tools: readonly Tool[]): Array<Record<string, unknown>> {
  return tools.map(({ name, description, inputSchema }) => ({
    name,
    description,
    inputSchema: unbounded(inputSchema),
  }));
}
