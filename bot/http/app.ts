/**
 * @module
 * The HTTP edge: the one Hono app of the process. Every surface serves its routes as a *route
 * group* (a `Hono<EdgeEnv>`) built in its own folder and mounted here; the edge owns only what
 * every route shares:
 *
 * - a request id (`c.var.requestId`, from a sane `X-Request-Id` or generated) on every response and
 *   in every line logged through `c.var.log`;
 * - the body limit (413 for a declared or a chunked body past it);
 * - `/healthz`;
 * - one error mapping: a thrown `OpError` answers `ERROR_CODES[code].http` with
 *   `{ error: code, message }` in the request's language, anything unexpected answers
 *   500 `internal` and is logged once with the request id; unknown paths answer 404 `not_found`.
 *
 * Mounting a group (the same for `/mcp`, the Telegram webhook, and later `/api`, `/app`, `/oauth`,
 * `/slack/events`):
 *
 * ```ts
 * // miniapp/server/routes.ts: the group, with paths relative to where it is mounted
 * export function miniAppRoutes(core: Core): RouteGroup {
 *   const group = new Hono<EdgeEnv>();
 *   group.post('/ops/:name', async (c) => c.json(await callOp(core, c)));   // an OpError → onError
 *   group.post('/import', async (c) => {
 *     c.var.log('import started');   // "http <request id> POST /api/import: import started"
 *     …
 *   });
 *   return group;
 * }
 * // bot/main.ts: the composition root mounts it
 * edge.mount('/api', miniAppRoutes(runtime.core));
 * ```
 *
 * A group may be mounted before or after the server listens (Telegram connects in the background
 * and mounts its webhook when it is up); the routes it has when mounted are the ones served, so
 * build it fully first. Mount a path once: the first group to match a request answers it.
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { TrieRouter } from 'hono/router/trie-router';

import { bodyLimit, DEFAULT_MAX_BODY_BYTES } from './bodyLimit.ts';
import { errorResponse, toEdgeError } from './errors.ts';
import { requestId } from './requestId.ts';
import { OpError } from '../../core/index.ts';

/** What every route of the edge can read from its context. */
export interface EdgeEnv {
  Variables: {
    /** The request's id, as answered in `X-Request-Id`. */
    requestId: string;
    /** Writes one line about this request to the process log, prefixed `http <id> <METHOD> <path>:`. */
    log: EdgeLog;
  };
}

/** A surface's routes, mounted on the edge with `Edge.mount`. */
export type RouteGroup = Hono<EdgeEnv>;

/** Where the edge writes its lines (the process log); `error` is the failure, when there is one. */
export type EdgeLog = (line: string, error?: unknown) => void;

export interface EdgeOptions {
  /** Largest request body accepted, in bytes (default 4 MiB). */
  maxBodyBytes?: number | undefined;
  /**
   * Paths (exact, after the mount) whose bodies may be larger than `maxBodyBytes`, each with its
   * own limit and the 413's sentence: an upload a reader accepts up to its own limit (a 20 MB
   * statement at `/api/import`) is not cut off by the general one.
   */
  largerBodies?: Readonly<Record<string, { maxBytes: number; key: string }>> | undefined;
  log?: EdgeLog | undefined;
}

export interface Edge {
  /** The app itself, for the server (`app.fetch`). Mount routes through `mount`, not on it directly. */
  readonly app: Hono<EdgeEnv>;
  /** Serves `group`'s routes under `path` (`'/'` for a group whose routes are absolute paths). */
  mount(path: string, group: RouteGroup): void;
}

const consoleLog: EdgeLog = (line, error) => {
  if (error === undefined) console.error(line);
  else console.error(line, error);
};

/** Creates the edge: the shared middleware, `/healthz`, the 404 and the error mapping. */
export function createEdge(options: EdgeOptions = {}): Edge {
  const write = options.log ?? consoleLog;
  // TrieRouter, not Hono's default: the default compiles its matcher on the first request and then
  // refuses new routes, and a group may be mounted after the server is up.
  const app = new Hono<EdgeEnv>({ router: new TrieRouter() });

  app.use(requestId());
  app.use(async (c, next) => {
    c.set('log', (line, error) =>
      write(`http ${c.var.requestId} ${c.req.method} ${c.req.path}: ${line}`, error),
    );
    await next();
  });
  const general = bodyLimit(options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
  const larger = new Map(
    Object.entries(options.largerBodies ?? {}).map(([path, limit]) => [
      path,
      bodyLimit(limit.maxBytes, limit.key),
    ]),
  );
  app.use((c, next) => (larger.get(c.req.path) ?? general)(c, next));
  app.all('/healthz', (c) => c.json({ ok: true }));
  app.notFound((c) => errorResponse(c, new OpError('not_found')));
  app.onError((error, c) => {
    // A response the thrower built on purpose (a challenge with its headers) goes out as it is.
    if (error instanceof HTTPException && error.res) return error.getResponse();
    const mapped = toEdgeError(error);
    if (mapped.httpStatus >= 500) c.var.log(`${mapped.httpStatus} ${mapped.code}`, error);
    return errorResponse(c, mapped);
  });

  return { app, mount: (path, group) => void app.route(path, group) };
}
