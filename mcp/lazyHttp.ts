import type { EdgeLog } from '../bot/http/app.ts';
import type { McpFetchDeps, McpFetchHandler } from './http.ts';

/** The MCP handler, loaded when first needed: `warm()` starts loading it ahead of a request. */
export type LazyMcpFetchHandler = McpFetchHandler & { warm(): void };

/**
 * `createMcpFetchHandler` (`./http.ts`) without loading the MCP SDK at start: the SDK and the
 * server built over the catalog (a good part of a start's time) are imported on the first request
 * to an MCP path, or as soon as `warm()` is called (the server calls it once it is listening, so a
 * first agent normally finds it loaded). A request that arrives while it loads waits for it; a
 * load that failed is tried again by the next request.
 */
export function lazyMcpFetchHandler(deps: McpFetchDeps): LazyMcpFetchHandler {
  let loading: Promise<McpFetchHandler> | null = null;
  const load = (): Promise<McpFetchHandler> => {
    loading ??= import('./http.ts').then(
      (http) => http.createMcpFetchHandler(deps),
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };
  const handle = async (request: Request, log?: EdgeLog): Promise<Response | null> =>
    (await load())(request, log);
  return Object.assign(handle, {
    warm(): void {
      // A failure here is the next request's to report (it loads again).
      load().catch(() => undefined);
    },
    async close(): Promise<void> {
      const loaded = await loading?.catch(() => null);
      await loaded?.close();
    },
  });
}
