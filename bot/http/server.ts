import { createServer, type Server } from 'node:http';

import { getRequestListener, RequestError } from '@hono/node-server';

import type { Edge } from './app.ts';
import { REQUEST_ID_HEADER, requestIdFrom } from './requestId.ts';
import { OpError } from '../../core/index.ts';

export interface HttpHostOptions {
  port: number;
  /** The address to listen on (default 127.0.0.1). */
  host?: string | undefined;
}

export interface HttpHost {
  server: Server;
  /** The base URL it listens on, such as http://127.0.0.1:8080. */
  url: string;
  close(): Promise<void>;
}

/**
 * What never reaches the app is answered here, in the edge's error shape: a request Node parsed but
 * that names no valid URL (a malformed Host header, a backslash in the path) is `invalid_input`;
 * a failure of the app itself (its error handler threw) is `internal`, logged once.
 */
function outsideTheApp(error: unknown): Response {
  const id = requestIdFrom(undefined);
  const fault =
    error instanceof RequestError ? new OpError('invalid_input') : new OpError('internal');
  if (fault.code === 'internal') console.error(`http ${id}: the app failed`, error);
  const body = { error: fault.code, message: fault.render('en') };
  return new Response(JSON.stringify(body), {
    status: fault.httpStatus,
    headers: { 'content-type': 'application/json', [REQUEST_ID_HEADER]: id },
  });
}

/**
 * Serves the edge over HTTP/1.1 with `@hono/node-server`, which turns Node's request into a
 * web-standard one lazily (headers and body only when read) and streams responses as they are
 * produced (SSE goes out unbuffered). Rejects with the listen error (EADDRINUSE…) for the caller to
 * explain.
 */
export async function listen(edge: Edge, options: HttpHostOptions): Promise<HttpHost> {
  const host = options.host ?? '127.0.0.1';
  const server = createServer(getRequestListener(edge.app.fetch, { errorHandler: outsideTheApp }));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = address && typeof address === 'object' ? address.port : options.port;
  return {
    server,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
