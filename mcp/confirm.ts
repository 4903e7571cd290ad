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
import { proposalCard } from '../core/assistant/cards.ts';
import type { Core } from '../core/kernel/core.ts';
import { OpError } from '../core/errors/index.ts';
import type { AnyOp } from '../core/kernel/op.ts';
import { movesMoney } from '../core/kernel/op.ts';
import { changeFingerprint } from '../core/kernel/preview.ts';
import { parseInput } from '../core/kernel/validation.ts';
import { t } from '../core/i18n/index.ts';
import { errorResult, successResult } from './results.ts';
import { advertisedZod } from './schemas.ts';
import { claimFlow, type FlowRow, releaseFlow } from '../core/store/repos/flows.ts';

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

interface Preview {
  text: string;
  fingerprint: string;
}

/**
 * What the change would do, written by Exhale from a dry run (the same card the built-in
 * assistant shows), and the fingerprint the real run must match.
 */
async function preview(core: Core, op: AnyOp, actor: Actor, args: unknown): Promise<Preview> {
  const dry = await core.invoke(op, actor, args, { dryRun: true, surface: 'mcp' });
  const card = await proposalCard(core.db.knex, op, dry.output, dry.changes, actor.locale);
  const head = t(actor.locale, 'mcp.confirm.preview', { title: card.title });
  return {
    text: [head, ...card.lines.map((line) => `• ${line}`)].join('\n'),
    fingerprint: changeFingerprint(dry.changes),
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
  if (supportsElicitation(server, ctx)) {
    const state = ctx.mcpReq.requestState();
    const responses = ctx.mcpReq.inputResponses;
    const asked =
      typeof state === 'string' && responses && 'confirm' in responses
        ? await claimAsked(core, actor, state, op.name, args)
        : null;
    if (asked) {
      const answer = acceptedContent(responses ?? {}, 'confirm', Answer);
      if (answer?.confirm !== true) {
        return {
          isError: true,
          content: [{ type: 'text', text: t(actor.locale, 'mcp.confirm.declined') }],
        };
      }
      return applyPreviewed(core, op, actor, asked);
    }
    const shown = await preview(core, op, actor, args);
    const stored = await storeConfirmation(core, actor, op.name, args, shown.fingerprint);
    return inputRequired({
      inputRequests: {
        confirm: inputRequired.elicit({
          message: `${shown.text}\n${t(actor.locale, 'mcp.confirm.question')}`,
          requestedSchema: Answer,
        }),
      },
      requestState: stored.id,
    });
  }
  const shown = await preview(core, op, actor, args);
  const stored = await storeConfirmation(core, actor, op.name, args, shown.fingerprint);
  const how = t(actor.locale, 'mcp.confirm.how', { id: stored.id, expires_at: stored.expiresAt });
  // An error result (nothing was applied) with no structuredContent: clients check that against the
  // tool's output schema, which a preview is not. The text carries everything; _meta repeats the
  // id for clients that read it.
  return {
    isError: true,
    content: [{ type: 'text', text: `${shown.text}\n${how}` }],
    _meta: {
      [CONFIRMATION_META_KEY]: {
        confirmation_id: stored.id,
        expires_at: stored.expiresAt,
        op: op.name,
      },
    },
  };
}

/** Applies a claimed preview; a run that would differ from it is refused and leaves it used. */
async function applyPreviewed(
  core: Core,
  op: AnyOp,
  actor: Actor,
  payload: ConfirmationPayload,
): Promise<CallToolResult> {
  try {
    const result = await core.invoke(op, actor, payload.args, {
      surface: 'mcp',
      expectChanges: payload.changes,
    });
    return successResult(op, result, actor.locale);
  } catch (error) {
    return errorResult(error, actor.locale, op.name);
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

/** The stored preview an elicitation round echoes, claimed once; null when it is not one this call may use. */
async function claimAsked(
  core: Core,
  actor: Actor,
  id: string,
  opName: string,
  args: unknown,
): Promise<ConfirmationPayload | null> {
  try {
    const payload = await claim(core, actor, id);
    if (payload.op === opName && sameArgs(payload.args, args)) return payload;
    await releaseFlow(core.db.knex, { id });
    return null;
  } catch (error) {
    if (error instanceof OpError) return null;
    throw error;
  }
}

interface ConfirmationPayload {
  op: string;
  args: unknown;
  token_id: string | null;
  /** The preview's changeFingerprint; absent in rows stored before it existed. */
  changes?: string;
}

async function storeConfirmation(
  core: Core,
  actor: Actor,
  opName: string,
  args: unknown,
  fingerprint: string,
): Promise<{ id: string; expiresAt: string }> {
  const now = core.clock();
  const id = core.newId('cfm');
  const expiresAt = new Date(now.getTime() + CONFIRMATION_TTL_MS).toISOString();
  const payload: ConfirmationPayload = {
    op: opName,
    args: args ?? {},
    token_id: actor.agent?.tokenId ?? null,
    changes: fingerprint,
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
        "Applies a change that was previewed with a confirmation_id, once the person has agreed to it, exactly as previewed: if the records it touches changed since, nothing is applied and the tool must be called again for a new preview. Returns the tool's name, the activity id to pass to undo, and what the original tool returns.",
      inputSchema: advertisedZod(ConfirmInput.strict(), 'input'),
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
        const result = await core.invoke(op, actor, claimed.payload.args, {
          surface: 'mcp',
          ...(claimed.payload.changes === undefined
            ? {}
            : { expectChanges: claimed.payload.changes }),
        });
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
        // A change that failed was not applied: the confirmation stays usable until it expires,
        // unless the data moved since the preview (then only a new preview can be confirmed).
        const moved = error instanceof OpError && error.key === 'errors.preview_changed';
        if (claimed && moved) await core.db.knex('flows').where({ id: claimed.id }).delete();
        else if (claimed) await releaseFlow(core.db.knex, { id: claimed.id });
        return errorResult(error, actor.locale, 'confirm');
      }
    },
  );
}
