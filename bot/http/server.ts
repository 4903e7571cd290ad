import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable, Transform } from 'node:stream';

import { BodyTooLargeError, type FetchHandler, isBodyTooLarge, tooLarge } from './fetchHandler.ts';

export interface HttpHostOptions {
  port: number;
  host?: string;
  /** Tried in order; the first non-null response wins. */
  handlers: FetchHandler[];
  /** Largest request body accepted, in bytes (default 4 MiB). */
  maxBodyBytes?: number;
}

export interface HttpHost {
  server: Server;
  /** The base URL it listens on, such as http://127.0.0.1:8080. */
  url: string;
  close(): Promise<void>;
}

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

/** Converts a Node request to a web Request; the body streams through with a size limit. */
function toRequest(req: IncomingMessage, base: string, maxBody: number): Request {
  const url = new URL(req.url ?? '/', base);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  let seen = 0;
  // Past the limit the body stream fails with BodyTooLargeError (the reader answers 413); the
  // socket is left open so that answer reaches the client, and closed after it.
  const guard = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > maxBody) callback(new BodyTooLargeError());
      else callback(null, chunk);
    },
  });
  const limited = hasBody ? Readable.toWeb(req.pipe(guard)) : undefined;
  return new Request(url, {
    method: req.method ?? 'GET',
    headers,
    body: limited as ReadableStream<Uint8Array> | undefined,
    duplex: 'half',
  } as RequestInit);
}

async function send(res: ServerResponse, response: Response): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, key) => res.setHeader(key, value));
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
}

/** A plain JSON response; every error body of the host has this shape and never a stack trace. */
export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/** Starts the one HTTP server of the process, serving `/healthz` and every mounted handler. */
export async function startHttpHost(options: HttpHostOptions): Promise<HttpHost> {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const host = options.host ?? '127.0.0.1';
  let base = `http://${host}:${options.port}`;
  const server = createServer((req, res) => {
    void (async () => {
      try {
        const declared = Number(req.headers['content-length'] ?? 0);
        if (declared > maxBody) {
          await send(res, json(413, { error: 'too_large', message: 'Request body too large.' }));
          return;
        }
        const request = toRequest(req, base, maxBody);
        const { pathname } = new URL(request.url);
        if (pathname === '/healthz') {
          await send(res, json(200, { ok: true }));
          return;
        }
        for (const handler of options.handlers) {
          const response = await handler(request);
          if (response) {
            await send(res, response);
            return;
          }
        }
        await send(res, json(404, { error: 'not_found', message: 'Not found.' }));
      } catch (error) {
        if (isBodyTooLarge(error)) {
          if (!res.headersSent) await send(res, tooLarge());
          req.destroy();
          return;
        }
        console.error('http request failed', error);
        if (!res.headersSent)
          await send(res, json(500, { error: 'internal', message: 'Internal error.' }));
        else res.end();
      }
    })();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => resolve());
  });
  const address = server.address();
  if (address && typeof address === 'object')
    base = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  return {
    server,
    url: base,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
