import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createMcpTestHousehold, ERAS, type McpTestHousehold } from './helpers.ts';

const LEGACY_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

function rpc(method: string, params: Record<string, unknown> = {}): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
}

describe('MCP access', () => {
  let h: McpTestHousehold;
  beforeEach(async () => {
    h = await createMcpTestHousehold();
  });
  afterEach(async () => h.closeAll());

  it('answers a request without a token with 401 and a Bearer challenge', async () => {
    const response = await h.send('/mcp', {
      method: 'POST',
      headers: LEGACY_HEADERS,
      body: rpc('tools/list'),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer realm="exhale", resource_metadata="http://localhost:8080/.well-known/oauth-protected-resource/mcp", scope="read write"',
    );
    expect(await response.json()).toMatchObject({ error: 'unauthorized' });
  });

  it('answers an unknown, malformed or revoked token with 401 invalid_token', async () => {
    const { id, token } = await h.token('read');
    await h.core.invoke('revoke_token', h.owner, { id });
    for (const bad of [`exh_${'a'.repeat(32)}`, 'hello', token]) {
      const response = await h.send('/mcp', {
        method: 'POST',
        headers: { ...LEGACY_HEADERS, authorization: `Bearer ${bad}` },
        body: rpc('tools/list'),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(
        /^Bearer realm="exhale", error="invalid_token", error_description="[^"]+", resource_metadata="http:\/\/localhost:8080\/.well-known\/oauth-protected-resource\/mcp", scope="read write"$/,
      );
      const body = (await response.json()) as { error: string; error_description: string };
      expect(body.error).toBe('invalid_token');
      expect(JSON.stringify(body)).not.toMatch(/\bat \w/);
    }
  });

  it("answers a call beyond the token's scope with 403 insufficient_scope naming the scope needed", async () => {
    const { token } = await h.token('read');
    const response = await h.send('/mcp', {
      method: 'POST',
      headers: { ...LEGACY_HEADERS, authorization: `Bearer ${token}` },
      body: rpc('tools/call', {
        name: 'create_subscription',
        arguments: { name: 'X', amount: '1' },
      }),
    });
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toBe(
      'Bearer realm="exhale", error="insufficient_scope", scope="write", resource_metadata="http://localhost:8080/.well-known/oauth-protected-resource/mcp", error_description="The tool create_subscription needs a token with the write scope."',
    );
    expect(await response.json()).toMatchObject({ error: 'insufficient_scope', scope: 'write' });
    const write = await h.token('write');
    const revoke = await h.send('/mcp', {
      method: 'POST',
      headers: { ...LEGACY_HEADERS, authorization: `Bearer ${write.token}` },
      body: rpc('tools/call', { name: 'revoke_token', arguments: { id: write.id } }),
    });
    expect(revoke.status).toBe(403);
    expect(revoke.headers.get('www-authenticate')).toContain('scope="trusted"');
    expect(await h.db.knex('subscriptions').where({ name: 'X' }).first()).toBeUndefined();
  });

  it.each(ERAS)('shows a read token read tools only, and they work (%s era)', async (era) => {
    const client = await h.connect((await h.token('read')).token, era);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(5);
    for (const tool of tools) expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    expect(tools.some((t) => t.name === 'confirm')).toBe(false);
    const listed = await client.callTool({ name: 'list_subscriptions', arguments: {} });
    expect(listed.isError).toBeFalsy();
    await expect(
      client.callTool({ name: 'create_subscription', arguments: { name: 'X', amount: '1' } }),
    ).rejects.toThrow('Insufficient scope: required "write"');
  });

  it.each(ERAS)('refuses a revoked token from its next request on (%s era)', async (era) => {
    const { id, token } = await h.token('read');
    const client = await h.connect(token, era);
    expect((await client.callTool({ name: 'get_household', arguments: {} })).isError).toBeFalsy();
    await h.core.invoke('revoke_token', h.owner, { id });
    await expect(client.callTool({ name: 'get_household', arguments: {} })).rejects.toThrow(
      'Unauthorized',
    );
  });

  it('refuses an expired token from its next request on with the same 401 as a revoked one', async () => {
    const { token } = (
      await h.core.invoke('create_token', h.owner, {
        name: 'Week pass',
        scope: 'read',
        expires_in_days: 1,
      })
    ).output;
    const revoked = await h.token('read');
    await h.core.invoke('revoke_token', h.owner, { id: revoked.id });
    const ask = (bearer: string) =>
      h.send('/mcp', {
        method: 'POST',
        headers: { ...LEGACY_HEADERS, authorization: `Bearer ${bearer}` },
        body: rpc('tools/list'),
      });
    expect((await ask(token)).status).toBe(200);
    h.clock.now = new Date(h.clock.now.getTime() + 86_400_000);
    const expired = await ask(token);
    const refused = await ask(revoked.token);
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toBe(refused.headers.get('www-authenticate'));
    expect(await expired.json()).toEqual(await refused.json());
  });

  it("records the token's last use", async () => {
    const { id, token } = await h.token('read');
    const client = await h.connect(token, 'modern');
    await client.callTool({ name: 'get_household', arguments: {} });
    expect(await h.db.knex('token_uses').where({ token_id: id }).first()).toMatchObject({
      last_used_at: h.clock.now.toISOString(),
    });
  });

  it("acts as the token's member with no more than that member may do", async () => {
    const luis = await h.addMember('Luis');
    const client = await h.connect((await h.token('trusted', luis)).token, 'modern');
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('update_member');
    // Owner-only ops are not offered to a member's agent, even with a trusted token.
    expect(names).not.toContain('update_household');
    const owner = await h.connect((await h.token('trusted')).token, 'modern');
    expect((await owner.listTools()).tools.map((t) => t.name)).toContain('update_household');
  });
});
