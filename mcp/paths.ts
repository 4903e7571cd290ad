/**
 * The paths MCP answers, as plain constants: the edge mounts them at start without loading the MCP
 * SDK, which `./lazyHttp.ts` imports with the first request.
 */
export const MCP_PATH = '/mcp';

/** The icon, served at /mcp/icon.svg (`./identity.ts`). */
export const ICON_PATH = '/mcp/icon.svg';

/** Every discovery document's paths (`./discovery.ts` serves them). */
export const DISCOVERY_PATHS = {
  serverCard: [
    '/mcp/server-card',
    '/.well-known/mcp/server-card.json',
    '/.well-known/mcp/server-card',
  ],
  aiCatalog: ['/.well-known/ai-catalog.json'],
  apiCatalog: ['/.well-known/api-catalog'],
  authMd: ['/auth.md'],
  llmsTxt: ['/llms.txt'],
  icon: [ICON_PATH],
} as const;
