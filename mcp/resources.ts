import {
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  ResourceNotFoundError,
  ResourceTemplate,
  type ServerContext,
} from '@modelcontextprotocol/server';

import { identified } from './results.ts';
import {
  type Actor,
  type AnyOp,
  type Core,
  isOpError,
  matchesText,
  offers,
  toOpError,
} from '../core/index.ts';

export const CONTEXT_URI = 'exhale://context';
export const HOUSEHOLD_URI = 'exhale://household';

/**
 * Entities with one resource each, `exhale://<path>/{id}`. Each is read through the ops (so privacy
 * and scope apply as for tools) and appears only when its ops are in the catalog.
 */
interface EntitySpec {
  path: string;
  name: string;
  title: string;
  description: string;
  list: string;
  listInput: Record<string, unknown>;
  itemsKey: string;
  get?: string;
}

export const ENTITIES: readonly EntitySpec[] = [
  {
    path: 'subscriptions',
    name: 'subscription',
    title: 'Subscription',
    description:
      'One subscription with its price, cycle, next charge date, monthly cost, category, tags and shares.',
    list: 'list_subscriptions',
    listInput: { limit: 500 },
    itemsKey: 'items',
    get: 'get_subscription',
  },
  {
    path: 'members',
    name: 'member',
    title: 'Member',
    description: 'One member of the household.',
    list: 'list_members',
    listInput: {},
    itemsKey: 'members',
  },
  {
    path: 'categories',
    name: 'category',
    title: 'Category',
    description: 'One category and how many subscriptions use it.',
    list: 'list_categories',
    listInput: {},
    itemsKey: 'items',
  },
  {
    path: 'payment-methods',
    name: 'payment_method',
    title: 'Payment method',
    description: 'One payment method and how many subscriptions use it.',
    list: 'list_payment_methods',
    listInput: {},
    itemsKey: 'items',
  },
  {
    path: 'tags',
    name: 'tag',
    title: 'Tag',
    description: 'One tag and how many subscriptions carry it.',
    list: 'list_tags',
    listInput: {},
    itemsKey: 'items',
  },
];

/** Tables whose rows are entity resources, by table name, for change notifications. */
export const ENTITY_TABLES: Readonly<Record<string, string>> = {
  subscriptions: 'subscriptions',
  members: 'members',
  categories: 'categories',
  payment_methods: 'payment-methods',
  tags: 'tags',
};

interface Item {
  id: string;
  name?: string;
}

/** Every op a resource reads runs as an MCP call. */
const MCP = { surface: 'mcp' } as const;

function usable(core: Core, actor: Actor, name: string | undefined): AnyOp | undefined {
  if (name === undefined) return undefined;
  const op = core.catalog.find((o) => o.name === name);
  return op && offers(op, actor, 'mcp') ? op : undefined;
}

function json(uri: string, value: unknown): ReadResourceResult {
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(value) }] };
}

/** Op failures as protocol errors: "not found" is the resource-not-found error, the rest carry the sentence. */
function readError(error: unknown, uri: string, actor: Actor): Error {
  if (isOpError(error) && error.code === 'not_found') return new ResourceNotFoundError(uri);
  if (!isOpError(error)) console.error(`mcp: reading ${uri} failed`, error);
  const op = toOpError(error);
  const code =
    op.code === 'internal' || op.code === 'unavailable'
      ? ProtocolErrorCode.InternalError
      : ProtocolErrorCode.InvalidParams;
  return new ProtocolError(code, op.render(actor.locale));
}

async function listItems(core: Core, actor: Actor, spec: EntitySpec, op: AnyOp): Promise<Item[]> {
  const { output } = await core.invoke(op, actor, spec.listInput, MCP);
  const items = (output as Record<string, unknown>)[spec.itemsKey];
  return Array.isArray(items) ? (items as Item[]) : [];
}

/** The live briefing: the get_context op when the catalog has it, else a small one built from reads. */
async function briefing(core: Core, actor: Actor): Promise<unknown> {
  const getContext = usable(core, actor, 'get_context');
  if (getContext) return (await core.invoke(getContext, actor, {}, MCP)).output;
  const [household, members, upcoming] = await Promise.all([
    core.invoke('get_household', actor, {}, MCP),
    core.invoke('list_members', actor, {}, MCP),
    core.invoke(
      'list_subscriptions',
      actor,
      { status: ['active', 'trial'], sort: 'next_charge_date', limit: 20 },
      MCP,
    ),
  ]);
  return {
    household: household.output,
    members: members.output,
    upcoming: upcoming.output,
    you: { member_id: actor.memberId, role: actor.role },
  };
}

/** Registers exhale://context, exhale://household and one template per entity, with id completion. */
export function registerResources(
  server: McpServer,
  core: Core,
  actorFor: (ctx: ServerContext) => Actor,
  base: Actor,
): void {
  server.registerResource(
    'context',
    CONTEXT_URI,
    {
      title: 'Household briefing',
      description:
        'Start here: the household (currency, time zone, language), its members, you, and what is coming up. Changes with every change in the household.',
      mimeType: 'application/json',
    },
    async (uri, ctx) => {
      const actor = actorFor(ctx);
      try {
        return identified(ctx, json(uri.href, await briefing(core, actor)));
      } catch (error) {
        throw readError(error, uri.href, actor);
      }
    },
  );

  if (usable(core, base, 'get_household')) {
    server.registerResource(
      'household',
      HOUSEHOLD_URI,
      {
        title: 'Household',
        description: 'The household: name, currency, time zone and language.',
        mimeType: 'application/json',
      },
      async (uri, ctx) => {
        const actor = actorFor(ctx);
        try {
          return identified(
            ctx,
            json(uri.href, (await core.invoke('get_household', actor, {}, MCP)).output),
          );
        } catch (error) {
          throw readError(error, uri.href, actor);
        }
      },
    );
  }

  for (const spec of ENTITIES) {
    const listOp = usable(core, base, spec.list);
    if (!listOp) continue;
    const getOp = usable(core, base, spec.get);
    let cached: Promise<Item[]> | undefined;
    // One list per server instance (one request): list and completion share it.
    const items = (actor: Actor) => (cached ??= listItems(core, actor, spec, listOp));
    const template = new ResourceTemplate(`exhale://${spec.path}/{id}`, {
      list: async (ctx) => {
        const actor = actorFor(ctx);
        try {
          const all = await items(actor);
          return {
            resources: all.map((item) => ({
              uri: `exhale://${spec.path}/${item.id}`,
              name: `${spec.name}:${item.id}`,
              title: item.name ?? item.id,
              mimeType: 'application/json',
            })),
          };
        } catch (error) {
          throw readError(error, `exhale://${spec.path}`, actor);
        }
      },
      complete: {
        id: async (value) => {
          const all = await items(base).catch(() => []);
          return all
            .filter((item) => item.id.startsWith(value) || matchesText(value, [item.name ?? null]))
            .map((item) => item.id)
            .slice(0, 100);
        },
      },
    });
    server.registerResource(
      spec.name,
      template,
      { title: spec.title, description: spec.description, mimeType: 'application/json' },
      async (uri, variables, ctx) => {
        const actor = actorFor(ctx);
        const id = String(Array.isArray(variables.id) ? variables.id[0] : variables.id);
        try {
          if (getOp)
            return identified(
              ctx,
              json(uri.href, (await core.invoke(getOp, actor, { id }, MCP)).output),
            );
          const found = (await items(actor)).find((item) => item.id === id);
          if (!found) throw new ResourceNotFoundError(uri.href);
          return identified(ctx, json(uri.href, found));
        } catch (error) {
          if (error instanceof ProtocolError) throw error;
          throw readError(error, uri.href, actor);
        }
      },
    );
  }
}
