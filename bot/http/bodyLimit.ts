import type { MiddlewareHandler } from 'hono';
import { OpError } from '../../core/index.ts';

/** The default largest request body, in bytes: 4 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * Refuses request bodies over `maxBytes` with `OpError('too_large')` (413 through the edge's
 * `onError`, or a handler's own answer, as MCP's JSON-RPC error):
 *
 * - a declared `Content-Length` over the limit is refused before anything reads the body (Node's
 *   parser never delivers more than the declared length, so a body within it needs no counting);
 * - a chunked body has no length to check up front: it streams through unbuffered and reading it
 *   fails with that error as soon as it grows past the limit.
 *
 * The rest of an oversized body is never read: the 413 closes the connection. The source stream is
 * not cancelled when the limit is hit, because cancelling it destroys the socket before the 413 is
 * written.
 *
 * `key` is the 413's sentence (default `errors.too_large`). The edge installs it once for every
 * route, with a larger limit for the paths its options name (statement uploads); a group can add a
 * stricter one of its own.
 */
export function bodyLimit(
  maxBytes: number = DEFAULT_MAX_BODY_BYTES,
  key?: string,
): MiddlewareHandler {
  const tooLarge = (): OpError => new OpError('too_large', key);
  return async (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const declared = c.req.header('content-length');
    if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
      if (Number(declared) > maxBytes) throw tooLarge();
      return next();
    }
    const body = c.req.raw.body;
    if (!body) return next();
    let seen = 0;
    const counted = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    });
    c.req.raw = new Request(c.req.raw, {
      body: body.pipeThrough(counted, { preventCancel: true }),
      duplex: 'half', // a streamed request body must say so (fetch spec)
    });
    return next();
  };
}
