import {
  CLIENT_INFO_META_KEY,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Actor } from '../core/index.ts';

/**
 * The client's name: from the request's `_meta` envelope (2026-07-28), or from the `initialize`
 * handshake of a 2025-era connection (stdio). Stateless 2025-era HTTP requests carry neither.
 */
export function clientName(server: McpServer, ctx: ServerContext): string | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const info = envelope?.[CLIENT_INFO_META_KEY] as { name?: unknown } | undefined;
  if (typeof info?.name === 'string' && info.name.trim() !== '')
    return info.name.trim().slice(0, 120);
  const legacy = server.server.getClientVersion();
  if (legacy?.name) return legacy.name.slice(0, 120);
  return undefined;
}

/**
 * The actor a tool call runs as: the token's (or local owner's) member, as an agent over MCP,
 * named after the client when it says who it is, else after the token. The audit records both.
 */
export function actingAgent(base: Actor, client: string | undefined): Actor {
  if (base.kind === 'system') return base;
  const name = client ?? base.agent?.name ?? 'MCP client';
  return { ...base, kind: 'agent', channel: 'mcp', agent: { name, tokenId: base.agent?.tokenId } };
}
