import {
  acceptedContent,
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  inputRequired,
  type InputRequiredResult,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { z } from 'zod';

import { errorResult, identified, successResult } from './results.ts';
import { advertisedZod } from './schemas.ts';
import {
  type Actor,
  type AnyOp,
  type Core,
  movesMoney,
  OpError,
  parseInput,
  type PendingChange,
  pendingChanges,
  type PendingChanges,
  t,
} from '../core/index.ts';

/** Where a preview's result names its confirmation in `_meta`. */
export const CONFIRMATION_META_KEY = 'exhale/confirmation';

/** How long a preview can be confirmed. */
export const CONFIRMATION_TTL_MS = 10 * 60_000;

/** Without a trusted token, a destructive change or one that moves money waits for the person's yes. */
export function needsConfirmation(op: AnyOp, actor: Actor, args: unknown): boolean {
  if (op.effect === 'read' || actor.scope === 'trusted') return false;
  return op.effect === 'destructive' || movesMoney(op, args);
}

/** Whether the client can ask its user in a form: declared per request (2026) or at initialize (2025 stdio). */
export function supportsElicitation(server: McpServer, ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = (envelope?.[CLIENT_CAPABILITIES_META_KEY] ??
    server.server.getClientCapabilities()) as
    { elicitation?: { form?: unknown; url?: unknown } } | undefined;
  const elicitation = declared?.elicitation;
  if (elicitation === undefined) return false;
  // An empty object is the 2025-06-18 spelling of form support.
  return elicitation.form !== undefined || elicitation.url === undefined;
}

const Answer = z.object({ confirm: z.boolean().describe('Apply this change') });

/**
 * MCP's pending changes ("confirmations"): bound to the token that asked, usable for 10 minutes,
 * refused in MCP's own words. A spent one (the records moved since its preview) reads as not found:
 * only a new preview can be confirmed.
 */
function mcpConfirmations(core: Core): PendingChanges {
  return pendingChanges(core, {
    surface: 'mcp',
    ttlMs: CONFIRMATION_TTL_MS,
    idPrefix: 'cfm',
    refusals: {
      not_found: 'errors.confirmation.not_found',
      spent: 'errors.confirmation.not_found',
      used: 'errors.confirmation.used',
      expired: 'errors.confirmation.expired',
    },
  });
}

/**
 * Prepares the change: what it would do, in the card Exhale writes from a dry run (the same card
 * the built-in assistant shows), stored for the person's yes.
 */
async function prepare(
  pending: PendingChanges,
  op: AnyOp,
  actor: Actor,
  args: unknown,
): Promise<{ text: string; change: PendingChange }> {
  const { change, preview } = await pending.prepare(actor, op, args);
  const head = t(actor.locale, 'mcp.confirm.preview', {
    title: preview.card.title,
    changes: preview.changes.length,
  });
  return {
    text: [head, ...preview.card.lines.map((line) => `• ${line}`)].join('\n'),
    change,
  };
}

/**
 * Runs a change that needs confirmation, applied only exactly as previewed.
 *
 * With elicitation: the first round stores the preview and asks the person, naming the stored
 * preview in `requestState`; only a round that echoes a preview this server issued to this token,
 * for this tool and these arguments, and carries the person's yes, applies it. An answer with no
 * such state is ignored and the person is asked (a client cannot skip the question).
 * Without elicitation: the preview and its confirmation_id for the `confirm` tool.
 */
export async function runConfirmed(
  deps: { core: Core; server: McpServer },
  op: AnyOp,
  actor: Actor,
  args: unknown,
  ctx: ServerContext,
): Promise<CallToolResult | InputRequiredResult> {
  const { core, server } = deps;
  const pending = mcpConfirmations(core);
  if (supportsElicitation(server, ctx)) {
    const state = ctx.mcpReq.requestState();
    const responses = ctx.mcpReq.inputResponses;
    const asked =
      typeof state === 'string' && responses && 'confirm' in responses
        ? await askedFor(pending, actor, state, op.name, args)
        : null;
    if (asked) {
      const answer = acceptedContent(responses ?? {}, 'confirm', Answer);
      if (answer?.confirm !== true) {
        // Declined: the question is answered, and its preview cannot be used any more.
        await pending.discard(actor, asked.id).catch(() => undefined);
        return {
          isError: true,
          content: [{ type: 'text', text: t(actor.locale, 'mcp.confirm.declined') }],
        };
      }
      return applyAsked(pending, actor, asked.id, op.name);
    }
    const shown = await prepare(pending, op, actor, args);
    return inputRequired({
      inputRequests: {
        confirm: inputRequired.elicit({
          message: `${shown.text}\n${t(actor.locale, 'mcp.confirm.question')}`,
          requestedSchema: Answer,
        }),
      },
      requestState: shown.change.id,
    });
  }
  const shown = await prepare(pending, op, actor, args);
  const { id, expiresAt } = shown.change;
  const how = t(actor.locale, 'mcp.confirm.how', { id, expires_at: expiresAt });
  // An error result (nothing was applied) with no structuredContent: clients check that against the
  // tool's output schema, which a preview is not. The text carries everything; _meta repeats the
  // id for clients that read it.
  return {
    isError: true,
    content: [{ type: 'text', text: `${shown.text}\n${how}` }],
    _meta: {
      [CONFIRMATION_META_KEY]: { confirmation_id: id, expires_at: expiresAt, op: op.name },
    },
  };
}

/** Applies the previewed change the person said yes to; a run that would differ from it is refused. */
async function applyAsked(
  pending: PendingChanges,
  actor: Actor,
  id: string,
  opName: string,
): Promise<CallToolResult> {
  try {
    const applied = await pending.confirm(actor, id);
    return successResult(applied.op, applied.result, actor.locale);
  } catch (error) {
    return errorResult(error, actor.locale, opName);
  }
}

/** Arguments compared as JSON with sorted keys: the same call, however the client ordered them. */
function sameArgs(a: unknown, b: unknown): boolean {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : typeof v === 'object' && v !== null
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return JSON.stringify(canonical(a ?? {})) === JSON.stringify(canonical(b ?? {}));
}

/** The open preview an elicitation round echoes; null when it is not one this call may apply. */
async function askedFor(
  pending: PendingChanges,
  actor: Actor,
  id: string,
  opName: string,
  args: unknown,
): Promise<PendingChange | null> {
  try {
    const change = await pending.open(actor, id);
    return change.payload.op === opName && sameArgs(change.payload.args, args) ? change : null;
  } catch (error) {
    if (error instanceof OpError) return null;
    throw error;
  }
}

const ConfirmInput = z.object({
  confirmation_id: z.string().min(1).max(90).describe('The confirmation_id a preview returned.'),
});
const ConfirmOutput = z.object({
  op: z.string().describe('The tool whose change was applied.'),
  activity_id: z
    .string()
    .nullable()
    .describe('The activity entry to pass to undo; null when nothing changed.'),
  result: z.record(z.string(), z.unknown()).describe('What that tool returns.'),
});

/** The `confirm` tool: applies a stored preview once, exactly as previewed, for the token that asked. */
export function registerConfirmTool(
  server: McpServer,
  core: Core,
  actorFor: (ctx: ServerContext) => Actor,
): void {
  const pending = mcpConfirmations(core);
  server.registerTool(
    'confirm',
    {
      title: 'Confirm a change',
      description:
        "Applies a change that was previewed with a confirmation_id, once the person has agreed to it, exactly as previewed: if the records it touches changed since, nothing is applied and the tool must be called again for a new preview. Returns the tool's name, the activity id to pass to undo, and what the original tool returns.",
      inputSchema: advertisedZod(ConfirmInput.strict(), 'input'),
      outputSchema: advertisedZod(ConfirmOutput, 'output'),
      annotations: { destructiveHint: true, openWorldHint: false },
    },
    async (args: unknown, ctx: ServerContext): Promise<CallToolResult> => {
      const actor = actorFor(ctx);
      try {
        const { confirmation_id: id } = parseInput(ConfirmInput.strict(), args, actor.locale);
        // Applied once, exactly as previewed; a failed apply leaves it confirmable until it
        // expires, unless the records moved since the preview (then only a new preview can be).
        const applied = await pending.confirm(actor, id);
        const { op, result } = applied;
        return identified(ctx, {
          ...successResult(op, result, actor.locale),
          structuredContent: {
            op: op.name,
            activity_id: result.auditId,
            result: result.output as Record<string, unknown>,
          },
        });
      } catch (error) {
        return identified(ctx, errorResult(error, actor.locale, 'confirm'));
      }
    },
  );
}
