import { Hono } from 'hono';

import type { EdgeEnv, RouteGroup } from './app.ts';
import type { FetchHandler } from './fetchHandler.ts';
import { OpError } from '../../core/index.ts';

/**
 * A platform webhook (a `FetchHandler` such as grammY's `webhookCallback`) as a route group serving
 * POST at the path it is mounted on; other methods are 404, as is a request the handler declines
 * (null).
 *
 * Platforms post JSON. The body is read once here (within the edge's body limit) and handed on
 * unchanged, so the handler still checks its secret first (a wrong secret stays 401). When the body
 * is not JSON, the handler's own parse fails: that answers 400 `invalid_input` and logs one line,
 * and no update is processed (grammY would otherwise throw, a 500).
 */
export function webhookRoutes(handler: FetchHandler): RouteGroup {
  const group = new Hono<EdgeEnv>();
  group.post('/', async (c) => {
    const text = await c.req.raw.text();
    let malformed = false;
    try {
      JSON.parse(text);
    } catch {
      malformed = true;
    }
    try {
      return (await handler(new Request(c.req.raw, { body: text }))) ?? c.notFound();
    } catch (error) {
      if (!malformed || !(error instanceof SyntaxError)) throw error;
      c.var.log('webhook body is not JSON; answered 400, nothing processed');
      throw new OpError('invalid_input');
    }
  });
  return group;
}
