import { Hono } from 'hono';

import type { EdgeEnv, RouteGroup } from '../bot/http/app.ts';
import type { McpFetchHandler } from './http.ts';
import { DISCOVERY_PATHS, MCP_PATH } from './paths.ts';

/** Every path the MCP handler answers: the endpoint and each discovery document. */
export const MCP_ROUTES: readonly string[] = [MCP_PATH, ...Object.values(DISCOVERY_PATHS).flat()];

/**
 * MCP's route group for the HTTP edge, mounted at `/` (its paths are absolute: `/mcp`,
 * `/.well-known/…`, `/llms.txt`). Each path hands the raw request to the handler, every method
 * included (POST, GET and DELETE on `/mcp` are the SDK's to answer; the documents answer 405 to
 * what they do not serve), so Host/Origin checks, bearer auth and streamed (SSE) answers are the
 * handler's, unchanged; its failure lines go to the request's log. The edge adds its request id,
 * body limit and 404.
 */
export function mcpRoutes(handler: McpFetchHandler): RouteGroup {
  const group = new Hono<EdgeEnv>();
  for (const path of MCP_ROUTES) {
    group.all(path, async (c) => (await handler(c.req.raw, c.var.log)) ?? c.notFound());
  }
  return group;
}
