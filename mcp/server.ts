import { McpServer, type ServerContext } from '@modelcontextprotocol/server';

import { actingAgent, clientName } from './agent.ts';
import { serverInfo } from './identity.ts';
import { INSTRUCTIONS } from './instructions.ts';
import { registerPrompts } from './prompts.ts';
import { registerResources } from './resources.ts';
import { registerOpTools } from './tools.ts';
import type { Actor, Core, Freshness } from '../core/index.ts';

export interface ExhaleServerOptions {
  core: Core;
  /** Who the server acts for: a token's agent, or the local owner over stdio. */
  actor: Actor;
  /** The server's base URL (HTTP), named in serverInfo; absent over stdio. */
  base?: string | undefined;
  /** The protocol era this instance serves. */
  era: 'legacy' | 'modern';
  /** Whether this instance outlives one request (stdio), so 2025-era resource subscriptions can be kept. */
  connection?: boolean;
  /**
   * The JSON-RPC messages this instance will serve, when known (one HTTP request): only what they
   * need is registered. Absent: everything (a stdio connection, or an unreadable body).
   */
  serves?: ReadonlyArray<{ method: string; tool?: string | undefined }> | undefined;
  /**
   * One HTTP request's freshness check (`newFreshness()`, made when it arrived and used for its
   * authentication): its op calls share it. Never given for a connection (stdio), which outlives it.
   */
  fresh?: Freshness | undefined;
  /**
   * A connection whose credential is checked again for every request (stdio with a token): the
   * actor and freshness check the request with this context was admitted with. Undefined for a
   * request the check did not see (none on such a connection): `actor` then.
   */
  requestAuth?: ((ctx: ServerContext) => RequestAuth | undefined) | undefined;
}

/** What one request was authenticated as: who it acts as, and its one freshness check. */
export interface RequestAuth {
  actor: Actor;
  fresh: Freshness;
}

interface Needs {
  /** Tool names to register, or 'all'. */
  tools: 'all' | Set<string>;
  resources: boolean;
  prompts: boolean;
}

const RESOURCE_METHODS = new Set([
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'resources/subscribe',
  'resources/unsubscribe',
]);
const PROMPT_METHODS = new Set(['prompts/list', 'prompts/get']);

/**
 * What a request needs registered. A stateless request builds its own server, so a tools/call
 * registers just that tool; anything that reports capabilities (initialize, server/discover,
 * subscriptions/listen) or is unknown gets everything.
 */
function needsOf(serves: ExhaleServerOptions['serves']): Needs {
  const all: Needs = { tools: 'all', resources: true, prompts: true };
  if (!serves || serves.length === 0) return all;
  const needs: Needs = { tools: new Set(), resources: false, prompts: false };
  for (const { method, tool } of serves) {
    if (method === 'tools/call' && tool !== undefined) {
      if (needs.tools !== 'all') needs.tools.add(tool);
    } else if (method === 'tools/list') needs.tools = 'all';
    else if (RESOURCE_METHODS.has(method)) needs.resources = true;
    else if (PROMPT_METHODS.has(method)) needs.prompts = true;
    else if (method === 'completion/complete') {
      needs.resources = true;
      needs.prompts = true;
    } else if (!method.startsWith('notifications/')) return all;
  }
  return needs;
}

const legacySubscribed = new WeakMap<McpServer, Set<string>>();

/** The URIs a 2025-era client on a live connection subscribed to (resources/subscribe), if any. */
export function subscribedUris(server: McpServer): ReadonlySet<string> | undefined {
  return legacySubscribed.get(server);
}

/** Lists depend on the token (scope, role), so they are private to it; a minute is plenty. */
const PRIVATE_MINUTE = { ttlMs: 60_000, cacheScope: 'private' } as const;

/**
 * The one server factory: every tool, resource and prompt comes from the catalog and a few tables.
 * Cheap to build, so the stateless HTTP endpoint builds one per request.
 */
export function createExhaleMcpServer(options: ExhaleServerOptions): McpServer {
  const { core, actor } = options;
  // Resource notifications are promised only where they can arrive: a 2026-era listen stream or
  // a live connection (stdio). A stateless 2025-era HTTP request has neither (GET /mcp is 405).
  const notifies = options.era === 'modern' || options.connection === true;
  const server = new McpServer(serverInfo(options.base), {
    instructions: INSTRUCTIONS,
    // A token's tools and the prompts never change while it is used; resources do (see notifications.ts).
    capabilities: {
      tools: { listChanged: false },
      prompts: { listChanged: false },
      resources: { listChanged: notifies },
    },
    cacheHints: {
      'tools/list': PRIVATE_MINUTE,
      'prompts/list': PRIVATE_MINUTE,
      'resources/templates/list': PRIVATE_MINUTE,
    },
  });
  const { requestAuth, fresh } = options;
  const actorFor = (ctx: ServerContext): Actor =>
    actingAgent(requestAuth?.(ctx)?.actor ?? actor, clientName(server, ctx));
  const freshFor = (ctx: ServerContext): Freshness | undefined =>
    fresh ?? requestAuth?.(ctx)?.fresh;
  const needs = needsOf(options.serves);
  registerOpTools(server, core, actorFor, actor, needs.tools, freshFor);
  if (needs.resources) registerResources(server, core, actorFor, actor);
  if (needs.prompts) registerPrompts(server, core, actor);
  if (options.era === 'modern') {
    // subscriptions/listen honours resourceSubscriptions only when the server declares subscribe.
    server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
  } else if (options.connection) {
    const uris = new Set<string>();
    legacySubscribed.set(server, uris);
    server.server.registerCapabilities({ resources: { subscribe: true, listChanged: true } });
    server.server.setRequestHandler('resources/subscribe', (request) => {
      uris.add(request.params.uri);
      return {};
    });
    server.server.setRequestHandler('resources/unsubscribe', (request) => {
      uris.delete(request.params.uri);
      return {};
    });
  }
  return server;
}
