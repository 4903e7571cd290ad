import {
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  type McpHttpHandler,
  originValidationResponse,
} from '@modelcontextprotocol/server';

import type { EdgeLog } from '../bot/http/app.ts';
import { bearerToken, insufficientScope, unauthorized } from './bearer.ts';
import { MCP_PREFLIGHT, withMcpCors } from './cors.ts';
import { createDiscovery, isDiscoveryPath } from './discovery.ts';
import { noticeFor } from './notifications.ts';
import { baseUrlOf, resourceMetadataUrl, resourceOf } from './oauth/base.ts';
import { CHALLENGE_SCOPE } from './oauth/metadata.ts';
import { MCP_PATH } from './paths.ts';
import { createExhaleMcpServer } from './server.ts';
import {
  type Actor,
  authenticateAccessToken,
  authenticateToken,
  type Core,
  type Freshness,
  isOpError,
  missingScope,
  newFreshness,
  scopeAllows,
} from '../core/index.ts';

export interface McpFetchDeps {
  core: Core;
  /** The public base URL (https://exhale.example.com): names the endpoint in documents, and its host is allowed. */
  publicUrl?: string | undefined;
  /** More Host/Origin hostnames to accept besides localhost and the public URL's. */
  allowedHosts?: string[] | undefined;
  /** Name the server from X-Forwarded-Proto/Host when there is no public URL (behind a trusted proxy). */
  trustProxy?: boolean | undefined;
}

/**
 * The member a bearer token stands for: an agent token (`exh_…`, `exhale token create`) or an
 * OAuth access token issued for this endpoint (`exa_…`); null for anything else.
 */
async function authenticate(
  core: Core,
  raw: string,
  resource: string,
  fresh: Freshness,
): Promise<Actor | null> {
  const now = core.clock();
  return (
    (await authenticateToken(core.db, raw, now, fresh)) ??
    (await authenticateAccessToken(core.db, raw, resource, now))
  );
}

export { MCP_PATH };

/**
 * The handler, plus `close()` to end open `subscriptions/listen` streams so the host can shut down.
 * `log`, when given (the edge's `c.var.log`), takes its failure lines, so they carry the request id.
 */
export type McpFetchHandler = ((request: Request, log?: EdgeLog) => Promise<Response | null>) & {
  close(): Promise<void>;
};

const consoleLog: EdgeLog = (line, error) => console.error(line, error);

const BODY_TOO_LARGE = (): Response =>
  new Response(
    JSON.stringify({
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Request body too large.' },
      id: null,
    }),
    { status: 413, headers: { 'content-type': 'application/json', connection: 'close' } },
  );

const INTERNAL_ERROR = JSON.stringify({
  jsonrpc: '2.0',
  error: { code: -32603, message: 'Internal error.' },
  id: null,
});

interface Served {
  method: string;
  tool?: string | undefined;
}

/** The methods (and called tools) of a JSON-RPC body, a message or a 2025-03-26 batch; null if unreadable. */
function servedBy(body: unknown): Served[] | null {
  const messages = Array.isArray(body) ? (body as unknown[]) : [body];
  const served: Served[] = [];
  for (const message of messages) {
    if (typeof message !== 'object' || message === null) return null;
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    if (typeof method !== 'string') return null;
    served.push({
      method,
      tool: method === 'tools/call' && typeof params?.name === 'string' ? params.name : undefined,
    });
  }
  return served;
}

/**
 * The MCP endpoint and the discovery documents, as one web-standard handler (the edge serves it
 * through `mcpRoutes` in `./routes.ts`; tests call it in-process).
 * `/mcp` is stateless Streamable HTTP for both protocol eras (the SDK's createMcpHandler), behind
 * Host/Origin validation and bearer-token auth; every other path is left to the next handler (null).
 */
export function createMcpFetchHandler(deps: McpFetchDeps): McpFetchHandler {
  const { core } = deps;
  const publicBase = deps.publicUrl?.replace(/\/+$/, '');
  const allowed = [
    ...localhostAllowedHostnames(),
    ...(publicBase ? [new URL(publicBase).hostname] : []),
    ...(deps.allowedHosts ?? []),
  ];
  const discovery = createDiscovery(core);

  // One SDK handler per household, so change notifications reach only that household's listeners.
  const handlers = new Map<string, McpHttpHandler>();
  const handlerFor = (householdId: string): McpHttpHandler => {
    let handler = handlers.get(householdId);
    if (!handler) {
      handler = createMcpHandler(
        (ctx) => {
          const actor = ctx.authInfo?.extra?.actor as Actor | undefined;
          if (!actor)
            throw new Error('mcp: request reached the server without an authenticated actor');
          const serves = (ctx.authInfo?.extra?.serves as Served[] | null | undefined) ?? undefined;
          const fresh = ctx.authInfo?.extra?.fresh as Freshness | undefined;
          const base =
            publicBase ?? (ctx.requestInfo ? new URL(ctx.requestInfo.url).origin : undefined);
          return createExhaleMcpServer({ core, actor, base, era: ctx.era, serves, fresh });
        },
        { legacy: 'stateless' },
      );
      handlers.set(householdId, handler);
    }
    return handler;
  };
  const unsubscribe = core.bus.subscribe((event) => {
    const handler = handlers.get(event.householdId);
    if (!handler) return;
    const notice = noticeFor(event);
    for (const uri of notice.updated) handler.notify.resourceUpdated(uri);
    if (notice.listChanged) handler.notify.resourcesChanged();
  });

  const serveMcp = async (request: Request, log: EdgeLog, base: string): Promise<Response> => {
    try {
      // DNS rebinding: a page on another site must not reach a local server through its own name.
      // The Host check is that protection, always (a rebound name arrives as the Host).
      const wrongHost = hostHeaderValidationResponse(request, allowed);
      if (wrongHost) return wrongHost;
      // A browser's preflight carries no token: answered for any origin, it grants nothing (the
      // request itself still needs one). CORS never allows credentials: no cookie counts here.
      if (request.method === 'OPTIONS')
        return new Response(null, { status: 204, headers: MCP_PREFLIGHT });
      const raw = bearerToken(request.headers.get('authorization'));
      // The Origin check refuses a page of another site that comes without a token of its own (a
      // token is the only thing /mcp acts on, never the browser's ambient state). A page that
      // sends one holds it (a browser-based client the person connected) and is answered as any
      // client is: an unknown or expired token gets the 401 that says to refresh or reconnect.
      const foreign = originValidationResponse(request, allowed);
      if (foreign && raw === null) return foreign;

      const metadata = resourceMetadataUrl(base);
      // This request's one SQLite data_version read: its token check and its op calls share it.
      const fresh = newFreshness();
      const actor = raw === null ? null : await authenticate(core, raw, resourceOf(base), fresh);
      if (!actor || actor.householdId === null)
        return unauthorized(raw !== null, metadata, CHALLENGE_SCOPE);

      let parsedBody: unknown;
      let serves: Served[] | null = null;
      if (request.method === 'POST') {
        const text = await request.text();
        try {
          parsedBody = JSON.parse(text);
        } catch {
          // Not JSON: the SDK answers with its parse error.
          request = new Request(request, { body: text });
        }
        serves = parsedBody === undefined ? null : servedBy(parsedBody);
        for (const { tool: name } of serves ?? []) {
          if (name === undefined) continue;
          const op = core.catalog.find((o) => o.name === name);
          const lacking = op ? missingScope(op, actor, 'mcp') : null;
          if (lacking) return insufficientScope(lacking, name, metadata);
          if (name === 'confirm' && !scopeAllows(actor.scope, 'write'))
            return insufficientScope('write', name, metadata);
        }
      }
      const authInfo = {
        token: raw ?? '',
        clientId: actor.agent?.tokenId ?? '',
        scopes: [actor.scope],
        extra: { actor, serves, fresh },
      };
      return await handlerFor(actor.householdId).fetch(
        request,
        parsedBody === undefined ? { authInfo } : { authInfo, parsedBody },
      );
    } catch (error) {
      // The edge's body limit, hit while reading a chunked body: answered as a JSON-RPC error.
      if (isOpError(error) && error.code === 'too_large') return BODY_TOO_LARGE();
      log('mcp: request failed', error);
      return new Response(INTERNAL_ERROR, {
        status: 500,
        headers: { 'content-type': 'application/json' },
      });
    }
  };

  const handle = async (request: Request, log: EdgeLog = consoleLog): Promise<Response | null> => {
    const url = new URL(request.url);
    const base = baseUrlOf(request, { publicUrl: publicBase, trustProxy: deps.trustProxy });
    // Every answer of /mcp, errors and streams included, carries CORS (any origin, no credentials).
    if (url.pathname === MCP_PATH) return withMcpCors(await serveMcp(request, log, base));
    if (!isDiscoveryPath(url.pathname)) return null;
    try {
      const rejected =
        hostHeaderValidationResponse(request, allowed) ??
        originValidationResponse(request, allowed);
      return rejected ?? (await discovery(request, url.pathname, base));
    } catch (error) {
      log('mcp: request failed', error);
      return new Response(INTERNAL_ERROR, {
        status: 500,
        headers: { 'content-type': 'application/json' },
      });
    }
  };
  return Object.assign(handle, {
    close: async () => {
      unsubscribe();
      await Promise.all([...handlers.values()].map((h) => h.close()));
      handlers.clear();
    },
  });
}
