/**
 * A mountable piece of the HTTP host, web-standard: it answers the requests it owns and returns
 * null for the others, so the host tries the next one. MCP, the Mini App API, OAuth and platform
 * webhooks are all FetchHandlers.
 */
export type FetchHandler = (request: Request) => Promise<Response | null>;
