/**
 * A mountable piece of the HTTP host, web-standard: it answers the requests it owns and returns
 * null for the others, so the host tries the next one. MCP, the Mini App API, OAuth and platform
 * webhooks are all FetchHandlers.
 */
export type FetchHandler = (request: Request) => Promise<Response | null>;

/**
 * What reading a request body throws when it grows past the host's limit (a chunked body has no
 * length to check up front). A handler that reads the body answers it with `tooLarge()`.
 */
export class BodyTooLargeError extends Error {
  constructor() {
    super('request body too large');
    this.name = 'BodyTooLargeError';
  }
}

export function isBodyTooLarge(error: unknown): boolean {
  return error instanceof Error && error.name === 'BodyTooLargeError';
}

/** 413, closing the connection (the rest of the body is not read). */
export function tooLarge(): Response {
  return new Response(JSON.stringify({ error: 'too_large', message: 'Request body too large.' }), {
    status: 413,
    headers: { 'content-type': 'application/json', connection: 'close' },
  });
}
