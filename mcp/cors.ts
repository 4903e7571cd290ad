/**
 * CORS for what browser-based MCP clients call directly (a web Inspector, an agent in a page): the
 * OAuth endpoints and documents (`mcp/oauth/`), and `/mcp` (`mcp/http.ts`). Any origin, never
 * credentials (`Access-Control-Allow-Credentials` is not sent, and Exhale reads no cookie there):
 * a page can only use a token it holds itself, in the Authorization header.
 */

/** The request headers MCP clients send, besides the safelisted ones (Streamable HTTP, 2025 and 2026 eras). */
const REQUEST_HEADERS = [
  'authorization',
  'content-type',
  'accept',
  'last-event-id',
  'mcp-protocol-version',
  'mcp-session-id',
  'mcp-method',
  'mcp-name',
].join(', ');

/** What a client's script may read of an answer: the auth challenge and MCP's own headers. */
const EXPOSED_HEADERS = 'www-authenticate, mcp-session-id, mcp-protocol-version';

/** On every answer of the OAuth endpoints and documents, and on their preflights. */
export const OAUTH_CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': REQUEST_HEADERS,
  'access-control-expose-headers': EXPOSED_HEADERS,
  'access-control-max-age': '600',
} as const;

/** The answer to a preflight of `/mcp`. */
export const MCP_PREFLIGHT = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers': REQUEST_HEADERS,
  'access-control-max-age': '600',
} as const;

/** On every answer of `/mcp`. */
const MCP_CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS,
} as const;

/** `response` with `/mcp`'s CORS headers (a streamed body passes through as it is). */
export function withMcpCors(response: Response): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(MCP_CORS)) headers.set(name, value);
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}
