/**
 * A web-standard handler that answers the requests it owns and returns null for the others. The
 * Telegram webhook (`bot/telegram`) and MCP (`mcp/http.ts`) are written this way; the edge serves
 * one inside a route group (`webhookRoutes` in `./webhook.ts`, `mcpRoutes` in `mcp/routes.ts`),
 * where null falls through to the edge's 404.
 */
export type FetchHandler = (request: Request) => Promise<Response | null>;
