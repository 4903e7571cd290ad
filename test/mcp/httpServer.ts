// An HTTP host serving /mcp for a fresh test household, for checking the conformance script by hand
// where `exhale` does not mount MCP yet. Prints the base URL and a token on stdout, logs on stderr.
import { createEdge } from '../../bot/http/app.ts';
import { listen } from '../../bot/http/server.ts';
import { createMcpFetchHandler } from '../../mcp/http.ts';
import { mcpRoutes } from '../../mcp/routes.ts';
import { createTestHousehold } from '../helpers/testCore.ts';

const h = await createTestHousehold();
await h.core.invoke('create_subscription', h.owner, { name: 'Netflix', amount: '15.99' });
const scope = process.env.EXHALE_TEST_TOKEN_SCOPE ?? 'read';
const { output } = await h.core.invoke('create_token', h.owner, {
  name: 'conformance',
  scope: scope === 'trusted' || scope === 'write' ? scope : 'read',
});
const edge = createEdge();
edge.mount('/', mcpRoutes(createMcpFetchHandler({ core: h.core })));
const host = await listen(edge, { port: Number(process.env.PORT ?? 0) });
console.log(`${host.url} ${output.token}`);
const stop = async () => {
  await host.close();
  await h.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
