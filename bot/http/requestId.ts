import { randomUUID } from 'node:crypto';

import type { MiddlewareHandler } from 'hono';

/** The header a request id travels in, both ways. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * A caller's id is kept when it is sane (1–128 characters of letters, digits and `._:=-`), so a
 * proxy's id follows the request through our logs; anything else (absent, too long, spaces, control
 * characters that could forge log lines) is replaced by a fresh UUID.
 */
const SANE = /^[\w.:=-]{1,128}$/;

export function requestIdFrom(header: string | undefined): string {
  return header !== undefined && SANE.test(header) ? header : randomUUID();
}

/**
 * Sets `c.var.requestId` and answers it in `X-Request-Id` on every response, errors and 404s
 * included. The header is set after the handler: a handler may return its own `Response` (MCP, the
 * Telegram webhook), and headers prepared with `c.header()` before it would not reach that one.
 */
export function requestId(): MiddlewareHandler<{ Variables: { requestId: string } }> {
  return async (c, next) => {
    const id = requestIdFrom(c.req.header(REQUEST_ID_HEADER));
    c.set('requestId', id);
    await next();
    try {
      c.res.headers.set(REQUEST_ID_HEADER, id);
    } catch {
      // Immutable headers (a Response from fetch() passed through): copy it into one we own.
      const original = c.res;
      c.res = new Response(original.body, original);
      c.res.headers.set(REQUEST_ID_HEADER, id);
    }
  };
}
