import type {
  CallToolResult,
  InputRequiredResult,
  McpServer,
  ServerContext,
  ToolAnnotations,
} from '@modelcontextprotocol/server';

import { toolDescription } from './instructions.ts';
import { needsConfirmation, registerConfirmTool, runConfirmed } from './confirm.ts';
import { errorResult, identified, successResult } from './results.ts';
import { toolSchemas } from './schemas.ts';
import {
  type Actor,
  type AnyOp,
  type Core,
  type Freshness,
  jsonTooDeep,
  offeredOn,
  opsFor,
  tooDeep,
} from '../core/index.ts';

/** Tool names every client accepts (the strictest rule in use). */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * MCP annotations follow from the op's declared effect; Exhale never reaches outside its own data.
 * A hint equal to the protocol's default (readOnlyHint and idempotentHint false, destructiveHint
 * true) is left out, and destructiveHint and idempotentHint only accompany a tool that writes (the
 * only case the protocol reads them in): the same meaning in fewer bytes of every agent's context.
 */
export function annotationsOf(op: AnyOp): ToolAnnotations {
  return {
    ...(op.effect === 'read'
      ? { readOnlyHint: true }
      : {
          ...(op.effect === 'destructive' ? {} : { destructiveHint: false }),
          ...(op.idempotent === true ? { idempotentHint: true } : {}),
        }),
    openWorldHint: false,
  };
}

/** Words a title may add to its tool's name without saying anything more. */
const FILLER = new Set(['a', 'an', 'the', 'my']);
/** A title's verb that says what the name's verb says. */
const SAME_VERB: Readonly<Record<string, string>> = { add: 'create', change: 'update' };

/**
 * The op's title where it adds to the tool's name ("Household briefing" for get_context), nothing
 * where it only spells the name out ("List members" for list_members): clients show the name then.
 */
export function titleOf(op: AnyOp): string | undefined {
  const named = new Set(op.name.split('_'));
  const words = op.title
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => !FILLER.has(w))
    .map((w) => SAME_VERB[w] ?? w);
  const singular = (w: string): string => (w.endsWith('s') ? w.slice(0, -1) : w);
  const adds = words.some((w) => !named.has(w) && !named.has(singular(w)) && !named.has(`${w}s`));
  return adds ? op.title : undefined;
}

const mcpCatalogs = new WeakMap<Core, readonly AnyOp[]>();

/** Every op MCP offers anyone, in catalog order: which records several tools share. */
function mcpCatalog(core: Core): readonly AnyOp[] {
  let ops = mcpCatalogs.get(core);
  if (!ops) {
    ops = core.catalog.filter((op) => offeredOn(op, 'mcp'));
    mcpCatalogs.set(core, ops);
  }
  return ops;
}

/** Whether the `confirm` tool is offered: only to tokens that can write but not without confirmation. */
export function offersConfirm(actor: Actor): boolean {
  return actor.scope === 'write';
}

/** What `registerTool` gets for one op: built once per tool list, not per request. */
interface ToolEntry {
  op: AnyOp;
  config: {
    title: string | undefined;
    description: string;
    inputSchema: ReturnType<ReturnType<typeof toolSchemas>>['input'];
    outputSchema: ReturnType<ReturnType<typeof toolSchemas>>['output'];
    annotations: ToolAnnotations;
  };
}

/** Per Core, per tool list (which ops `opsFor` offers depends on scope, role and kind alone). */
const toolLists = new WeakMap<Core, Map<string, ReadonlyMap<string, ToolEntry>>>();

/**
 * The tools `base` is offered, by name in catalog order, each with its registration: the policy
 * (`opsFor`), the schemas and the texts are the same for every actor of one scope, role and kind,
 * so a stateless request, which builds its own server, looks them up instead of rebuilding them.
 */
function toolsFor(core: Core, base: Actor): ReadonlyMap<string, ToolEntry> {
  let lists = toolLists.get(core);
  if (!lists) {
    lists = new Map();
    toolLists.set(core, lists);
  }
  const key = `${base.scope}|${base.role}|${base.kind}`;
  let tools = lists.get(key);
  if (!tools) {
    const ops = opsFor(core.catalog, base, 'mcp');
    const schemasOf = toolSchemas(ops, mcpCatalog(core));
    const entries = new Map<string, ToolEntry>();
    for (const op of ops) {
      const schemas = schemasOf(op);
      entries.set(op.name, {
        op,
        config: {
          title: titleOf(op),
          description: toolDescription(op.description),
          inputSchema: schemas.input,
          outputSchema: schemas.output,
          annotations: annotationsOf(op),
        },
      });
    }
    tools = entries;
    lists.set(key, tools);
  }
  return tools;
}

/**
 * Registers every op the actor may call as a tool, generated from the catalog: no per-tool code.
 * `only` narrows it to the tools one request calls (the rest would be built for nothing).
 * `freshFor` gives the request's freshness check (one HTTP request, or one request of a stdio
 * connection whose token is checked per request; never a whole connection's): the op call shares
 * the one SQLite data_version read its authentication made.
 */
export function registerOpTools(
  server: McpServer,
  core: Core,
  actorFor: (ctx: ServerContext) => Actor,
  base: Actor,
  only: 'all' | ReadonlySet<string> = 'all',
  freshFor: (ctx: ServerContext) => Freshness | undefined = () => undefined,
): void {
  const tools = toolsFor(core, base);
  const entries =
    only === 'all'
      ? tools.values()
      : [...only].flatMap((name) => {
          const entry = tools.get(name);
          return entry ? [entry] : [];
        });
  for (const { op, config } of entries) {
    server.registerTool(
      op.name,
      config,
      async (args: unknown, ctx: ServerContext): Promise<CallToolResult | InputRequiredResult> => {
        const actor = actorFor(ctx);
        try {
          // Refused before anything walks the arguments (a confirmation stores them as JSON).
          if (jsonTooDeep(args)) throw tooDeep();
          if (needsConfirmation(op, actor, args))
            return identified(ctx, await runConfirmed({ core, server }, op, actor, args, ctx));
          const result = await core.invoke(op, actor, args, {
            surface: 'mcp',
            fresh: freshFor(ctx),
          });
          return identified(ctx, successResult(op, result, actor.locale));
        } catch (error) {
          return identified(ctx, errorResult(error, actor.locale, op.name));
        }
      },
    );
  }
  if (offersConfirm(base) && (only === 'all' || only.has('confirm')))
    registerConfirmTool(server, core, actorFor);
}
