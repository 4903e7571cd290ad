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

import type { Actor } from '../core/kernel/actor.ts';
import type { Core } from '../core/kernel/core.ts';
import { OpError } from '../core/kernel/errors.ts';
import type { AnyOp } from '../core/kernel/op.ts';
import { offeredOn } from '../core/kernel/op.ts';
import { parseInput } from '../core/kernel/validation.ts';
import { t } from '../core/i18n/index.ts';
import { describeChanges } from './changes.ts';
import { errorResult, successResult } from './results.ts';
import { advertisedZod } from './schemas.ts';
import { claimFlow, type FlowRow, releaseFlow } from '../core/store/repos/flows.ts';

/** How long a preview can be confirmed. */
export const CONFIRMATION_TTL_MS = 10 * 60_000;

/** Without a trusted token, a destructive change or one that moves money waits for the person's yes. */
export function needsConfirmation(op: AnyOp, actor: Actor): boolean {
  if (op.effect === 'read' || actor.scope === 'trusted') return false;
  return op.effect === 'destructive' || op.financial === true;
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

interface Preview {
  text: string;
  changes: number;
}

async function preview(core: Core, op: AnyOp, actor: Actor, args: unknown): Promise<Preview> {
  const dry = await core.invoke(op, actor, args, { dryRun: true });
  const lines = describeChanges(dry.changes);
  const head = t(actor.locale, 'mcp.confirm.preview', {
    title: op.title,
    changes: dry.changes.length,
  });
  return { text: [head, ...lines].join('\n'), changes: dry.changes.length };
}

/**
 * Runs a change that needs confirmation. With elicitation: ask (an input_required result the
 * client fulfils), apply on yes. Without: a preview and a stored confirmation_id for `confirm`.
 */
export async function runConfirmed(
  deps: { core: Core; server: McpServer },
  op: AnyOp,
  actor: Actor,
  args: unknown,
  ctx: ServerContext,
): Promise<CallToolResult | InputRequiredResult> {
  const { core, server } = deps;
  if (supportsElicitation(server, ctx)) {
    const responses = ctx.mcpReq.inputResponses;
    if (responses && 'confirm' in responses) {
      const answer = acceptedContent(responses, 'confirm', Answer);
      if (answer?.confirm !== true) {
        return {
          isError: true,
          content: [{ type: 'text', text: t(actor.locale, 'mcp.confirm.declined') }],
        };
      }
      return successResult(op, await core.invoke(op, actor, args), actor.locale);
    }
    const shown = await preview(core, op, actor, args);
    return inputRequired({
      inputRequests: {
        confirm: inputRequired.elicit({
          message: `${shown.text}\n${t(actor.locale, 'mcp.confirm.question')}`,
          requestedSchema: Answer,
        }),
      },
    });
  }
  const shown = await preview(core, op, actor, args);
  const stored = await storeConfirmation(core, actor, op.name, args);
  const how = t(actor.locale, 'mcp.confirm.how', { id: stored.id, expires_at: stored.expiresAt });
  return {
    isError: true,
    content: [{ type: 'text', text: `${shown.text}\n${how}` }],
    structuredContent: {
      confirmation_required: true,
      confirmation_id: stored.id,
      expires_at: stored.expiresAt,
      op: op.name,
      changes: shown.changes,
    },
  };
}

interface ConfirmationPayload {
  op: string;
  args: unknown;
  token_id: string | null;
}

async function storeConfirmation(
  core: Core,
  actor: Actor,
  opName: string,
  args: unknown,
): Promise<{ id: string; expiresAt: string }> {
  const now = core.clock();
  const id = core.newId('cfm');
  const expiresAt = new Date(now.getTime() + CONFIRMATION_TTL_MS).toISOString();
  const payload: ConfirmationPayload = {
    op: opName,
    args: args ?? {},
    token_id: actor.agent?.tokenId ?? null,
  };
  await core.db
    .knex('flows')
    .where({ kind: 'confirmation' })
    .andWhere('expires_at', '<', now.toISOString())
    .delete();
  await core.db.knex('flows').insert({
    id,
    household_id: actor.householdId,
    member_id: actor.memberId,
    kind: 'confirmation',
    payload: JSON.stringify(payload),
    expires_at: expiresAt,
    used_at: null,
    created_at: now.toISOString(),
  });
  return { id, expiresAt };
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

/** A confirmation the caller may apply now, or the error saying why not (unknown, someone else's, used, expired). */
async function claim(core: Core, actor: Actor, id: string): Promise<ConfirmationPayload> {
  const row = (await core.db.knex('flows').where({ id, kind: 'confirmation' }).first()) as
    FlowRow | undefined;
  const payload = row ? (JSON.parse(row.payload) as ConfirmationPayload) : undefined;
  const mine =
    row !== undefined &&
    payload !== undefined &&
    row.household_id === actor.householdId &&
    row.member_id === actor.memberId &&
    payload.token_id === (actor.agent?.tokenId ?? null);
  if (!mine || !row || !payload)
    throw new OpError('not_found', 'errors.confirmation.not_found', { id });
  if (row.used_at !== null) throw new OpError('conflict', 'errors.confirmation.used', { id });
  const now = core.clock().toISOString();
  if (row.expires_at <= now) throw new OpError('conflict', 'errors.confirmation.expired', { id });
  const taken = await claimFlow(core.db.knex, { id }, core.clock());
  if (!taken) throw new OpError('conflict', 'errors.confirmation.used', { id });
  return payload;
}

/** The `confirm` tool: applies a stored preview once, exactly as previewed, for the token that asked. */
export function registerConfirmTool(
  server: McpServer,
  core: Core,
  actorFor: (ctx: ServerContext) => Actor,
): void {
  server.registerTool(
    'confirm',
    {
      title: 'Confirm a change',
      description:
        'Applies a change that was previewed with a confirmation_id, once the person has agreed to it. Returns what the original tool returns.',
      inputSchema: advertisedZod(ConfirmInput, 'input'),
      outputSchema: advertisedZod(ConfirmOutput, 'output'),
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    async (args: unknown, ctx: ServerContext): Promise<CallToolResult> => {
      const actor = actorFor(ctx);
      let claimed: { id: string; payload: ConfirmationPayload } | undefined;
      try {
        const { confirmation_id: id } = parseInput(ConfirmInput.strict(), args, actor.locale);
        claimed = { id, payload: await claim(core, actor, id) };
        const op = core.op(claimed.payload.op);
        if (!offeredOn(op, 'mcp')) throw new OpError('forbidden');
        const result = await core.invoke(op, actor, claimed.payload.args);
        const applied = successResult(op, result, actor.locale);
        return {
          ...applied,
          structuredContent: {
            op: op.name,
            activity_id: result.auditId,
            result: result.output as Record<string, unknown>,
          },
        };
      } catch (error) {
        // A change that failed was not applied: the confirmation stays usable until it expires.
        if (claimed) await releaseFlow(core.db.knex, { id: claimed.id });
        return errorResult(error, actor.locale, 'confirm');
      }
    },
  );
}
