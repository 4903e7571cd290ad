import type { CallToolResult } from '@modelcontextprotocol/server';
import {
  type AnyOp,
  type InvokeResult,
  isOpError,
  type Locale,
  t,
  toOpError,
} from '../core/index.ts';

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
