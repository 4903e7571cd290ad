import {
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
  type McpHttpHandler,
  originValidationResponse,
} from '@modelcontextprotocol/server';

import type { EdgeLog } from '../bot/http/app.ts';
import { bearerToken, insufficientScope, unauthorized } from './bearer.ts';
import { createDiscovery, isDiscoveryPath } from './discovery.ts';
import { noticeFor } from './notifications.ts';
import { createExhaleMcpServer } from './server.ts';
import {
  type Actor,
  authenticateToken,
  type Core,
  isOpError,
  missingScope,
  scopeAllows,
} from '../core/index.ts';

export interface McpFetchDeps {
  core: Core;
  /** The public base URL (https://exhale.example.com): names the endpoint in documents, and its host is allowed. */
  publicUrl?: string | undefined;
  /** More Host/Origin hostnames to accept besides localhost and the public URL's. */
  allowedHosts?: string[] | undefined;
}

export const MCP_PATH = '/mcp';

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
          const base =
            publicBase ?? (ctx.requestInfo ? new URL(ctx.requestInfo.url).origin : undefined);
          return createExhaleMcpServer({ core, actor, base, era: ctx.era, serves });
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

  const handle = async (request: Request, log: EdgeLog = consoleLog): Promise<Response | null> => {
    const url = new URL(request.url);
    const isMcp = url.pathname === MCP_PATH;
    const base = publicBase ?? url.origin;
    if (!isMcp && !isDiscoveryPath(url.pathname)) return null;
    try {
      // DNS rebinding: a page on another site must not reach a local server through its own name.
      const rejected =
        hostHeaderValidationResponse(request, allowed) ??
        originValidationResponse(request, allowed);
      if (rejected) return rejected;
      if (!isMcp) return discovery(request, url.pathname, base);

      const raw = bearerToken(request.headers.get('authorization'));
      const actor = raw === null ? null : await authenticateToken(core.db, raw, core.clock());
      if (!actor || actor.householdId === null) return unauthorized(raw !== null);

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
          if (lacking) return insufficientScope(lacking, name);
          if (name === 'confirm' && !scopeAllows(actor.scope, 'write'))
            return insufficientScope('write', name);
        }
      }
      const authInfo = {
        token: raw ?? '',
        clientId: actor.agent?.tokenId ?? '',
        scopes: [actor.scope],
        extra: { actor, serves },
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
  return Object.assign(handle, {
    close: async () => {
      unsubscribe();
      await Promise.all([...handlers.values()].map((h) => h.close()));
      handlers.clear();
    },
  });
}
