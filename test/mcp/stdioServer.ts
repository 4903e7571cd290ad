// A stdio MCP server for tests and the Inspector check, standing in for `exhale mcp` where the CLI
// lacks it: a fresh test database with one household, served as its owner (or as a token's agent
// when EXHALE_TEST_TOKEN_SCOPE is set). Logs go to stderr only.
import { authenticateToken } from '../../core/auth/authenticate.ts';
import type { Actor } from '../../core/kernel/actor.ts';
import { runMcpStdio } from '../../mcp/stdio.ts';
import { createTestHousehold } from '../helpers/testCore.ts';

const h = await createTestHousehold();
await h.core.invoke('create_subscription', h.owner, {
  name: 'Netflix',
  amount: '15.99',
  category: 'TV',
});
let actor: Actor = h.owner;
const scope = process.env.EXHALE_TEST_TOKEN_SCOPE;
if (scope === 'read' || scope === 'write' || scope === 'trusted') {
  const { output } = await h.core.invoke('create_token', h.owner, { name: 'stdio token', scope });
  const agent = await authenticateToken(h.db, output.token, h.clock.now);
  if (!agent) throw new Error('token did not authenticate');
  actor = agent;
}
await runMcpStdio({ core: h.core, actor });
await h.close();
