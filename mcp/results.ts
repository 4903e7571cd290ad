import {
  type CallToolResult,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  type ServerContext,
} from '@modelcontextprotocol/server';

import { IDENTITY } from './identity.ts';
import {
  type AnyOp,
  type InvokeResult,
  isOpError,
  type Locale,
  t,
  toOpError,
} from '../core/index.ts';

/**
 * The server a 2026-era result names in `_meta["io.modelcontextprotocol/serverInfo"]`: the name
 * and version only. Left to itself the SDK stamps the full serverInfo (description, icons; over
 * stdio the icon is an inline SVG) on every result, about 1.3 KB each; a handler's own value wins,
 * so the results Exhale builds carry this one. The whole identity stays where a client reads it:
 * `server/discover` (2026) and `initialize` (2025).
 */
export const RESULT_SERVER_INFO = { name: IDENTITY.name, version: IDENTITY.version } as const;

/**
 * `result` naming the server by RESULT_SERVER_INFO when it answers a 2026-era request (its
 * envelope names the protocol version); a 2025-era result is left as it is (that era's results
 * carry no serverInfo).
 */
export function identified<R extends { _meta?: Record<string, unknown> | undefined }>(
  ctx: ServerContext,
  result: R,
): R {
  // The SDK types the envelope's keys as unknown to it; the version key is the spec's.
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  if (envelope?.[PROTOCOL_VERSION_META_KEY] === undefined) return result;
  return { ...result, _meta: { ...result._meta, [SERVER_INFO_META_KEY]: RESULT_SERVER_INFO } };
}

/** Where a write's result names its activity entry (the id `undo` takes) in `_meta`. */
export const ACTIVITY_META_KEY = 'exhale/activity_id';

/**
 * A successful call: the op's output as structuredContent, and the same JSON as text for clients
 * that only show text. A write says where to undo it.
 */
export function successResult(op: AnyOp, result: InvokeResult, locale: Locale): CallToolResult {
  const json = JSON.stringify(result.output);
  const structuredContent = result.output as Record<string, unknown>;
  if (op.effect === 'read') return { content: [{ type: 'text', text: json }], structuredContent };
  const head = result.auditId
    ? t(locale, 'mcp.result.done', { activity: result.auditId })
    : t(locale, 'mcp.result.unchanged');
  return {
    content: [{ type: 'text', text: `${head}\n${json}` }],
    structuredContent,
    // The id to pass to undo, for clients that read results as data (the text says it too).
    ...(result.auditId ? { _meta: { [ACTIVITY_META_KEY]: result.auditId } } : {}),
  };
}

/** A failed call as a tool result the model can read and act on; internal details stay in the log. */
export function errorResult(error: unknown, locale: Locale, context: string): CallToolResult {
  if (!isOpError(error)) console.error(`mcp: ${context} failed`, error);
  return { isError: true, content: [{ type: 'text', text: toOpError(error).render(locale) }] };
}
