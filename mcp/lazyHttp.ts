import type { EdgeLog } from '../bot/http/app.ts';
import type { McpFetchDeps, McpFetchHandler } from './http.ts';

/**
 * `createMcpFetchHandler` (`./http.ts`) without loading the MCP SDK at start: the SDK and the
 * server over the catalog (about a sixth of a start's CPU) are imported by the first request to an
 * MCP path, which waits for them (a tenth of a second or so, once per process; `npm run bench --
 * start` measures it). Nothing is loaded ahead of time on purpose: a load right after the start
 * would compete with the first Telegram update or web request instead. A load that failed is tried
 * again by the next request.
 */
export function lazyMcpFetchHandler(deps: McpFetchDeps): McpFetchHandler {
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
    async close(): Promise<void> {
      const loaded = await loading?.catch(() => null);
      await loaded?.close();
    },
  });
}
