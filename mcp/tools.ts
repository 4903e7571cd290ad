import type {
  CallToolResult,
  InputRequiredResult,
  McpServer,
  ServerContext,
  ToolAnnotations,
} from '@modelcontextprotocol/server';

import { toolDescription } from './instructions.ts';
import { needsConfirmation, registerConfirmTool, runConfirmed } from './confirm.ts';
import { errorResult, successResult } from './results.ts';
import { toolSchemas } from './schemas.ts';
import { type Actor, type AnyOp, type Core, jsonTooDeep, opsFor, tooDeep } from '../core/index.ts';

/** Tool names every client accepts (the strictest rule in use). */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * MCP annotations follow from the op's declared effect; Exhale never reaches outside its own data.
 * A hint equal to the protocol's default (readOnlyHint and idempotentHint false) is left out, and
 * destructiveHint and idempotentHint only accompany a tool that writes (the only case the protocol
 * reads them in): the same meaning in fewer bytes of every agent's context.
 */
export function annotationsOf(op: AnyOp): ToolAnnotations {
  return {
    ...(op.effect === 'read'
      ? { readOnlyHint: true }
      : {
          destructiveHint: op.effect === 'destructive',
          ...(op.idempotent === true ? { idempotentHint: true } : {}),
        }),
    openWorldHint: false,
  };
}

/** Whether the `confirm` tool is offered: only to tokens that can write but not without confirmation. */
export function offersConfirm(actor: Actor): boolean {
  return actor.scope === 'write';
}

/**
 * Registers every op the actor may call as a tool, generated from the catalog: no per-tool code.
 * `only` narrows it to the tools one request calls (the rest would be built for nothing).
 */
export function registerOpTools(
  server: McpServer,
  core: Core,
  actorFor: (ctx: ServerContext) => Actor,
  base: Actor,
  only: 'all' | ReadonlySet<string> = 'all',
): void {
  const ops = opsFor(core.catalog, base, 'mcp');
  const schemasOf = toolSchemas(ops);
  for (const op of ops) {
    if (only !== 'all' && !only.has(op.name)) continue;
    const schemas = schemasOf(op);
    server.registerTool(
      op.name,
      {
        title: op.title,
        description: toolDescription(op.description),
        inputSchema: schemas.input,
        outputSchema: schemas.output,
        annotations: annotationsOf(op),
      },
      async (args: unknown, ctx: ServerContext): Promise<CallToolResult | InputRequiredResult> => {
        const actor = actorFor(ctx);
        try {
          // Refused before anything walks the arguments (a confirmation stores them as JSON).
          if (jsonTooDeep(args)) throw tooDeep();
          if (needsConfirmation(op, actor, args))
            return await runConfirmed({ core, server }, op, actor, args, ctx);
          return successResult(
            op,
            await core.invoke(op, actor, args, { surface: 'mcp' }),
            actor.locale,
          );
        } catch (error) {
          return errorResult(error, actor.locale, op.name);
        }
      },
    );
  }
  if (offersConfirm(base) && (only === 'all' || only.has('confirm')))
    registerConfirmTool(server, core, actorFor);
}
