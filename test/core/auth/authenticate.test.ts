import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { authenticateToken } from '../../../core/auth/authenticate.ts';
import { hashToken } from '../../../core/auth/tokens.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';

describe('authenticateToken', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  const create = async (scope: 'read' | 'write' | 'trusted', as = h.owner) =>
    (await h.core.invoke('create_token', as, { name: 'Claude', scope })).output;

  it('turns a token into an agent acting as its member, within its scope, over MCP', async () => {
    const luis = await h.addMember('Luis', 'es');
    const token = await create('write', luis);
    const actor = await authenticateToken(h.db, token.token, h.clock.now);
    expect(actor).toEqual({
      kind: 'agent',
      householdId: h.householdId,
      memberId: luis.memberId,
      role: 'member',
      scope: 'write',
      channel: 'mcp',
      locale: 'es',
      agent: { name: 'Claude', tokenId: token.id },
    });
  });

  it('accepts a token with an expiry until that moment, and refuses it from then on', async () => {
    const token = (
      await h.core.invoke('create_token', h.owner, {
        name: 'Claude',
        scope: 'read',
        expires_in_days: 7,
      })
    ).output;
    const created = h.clock.now.getTime();
    expect(token.expires_at).toBe(new Date(created + 7 * 86_400_000).toISOString());
    expect(await authenticateToken(h.db, token.token, h.clock.now)).not.toBeNull();
    const justBefore = new Date(created + 7 * 86_400_000 - 1);
    expect(await authenticateToken(h.db, token.token, justBefore)).not.toBeNull();
    // The lookup is cached per household; expiry is checked outside the cache, on every request.
    expect(
      await authenticateToken(h.db, token.token, new Date(created + 7 * 86_400_000)),
    ).toBeNull();
    const forever = (await h.core.invoke('create_token', h.owner, { name: 'CLI', scope: 'read' }))
      .output;
    expect(forever.expires_at).toBeNull();
    expect(
      await authenticateToken(h.db, forever.token, new Date(created + 3650 * 86_400_000)),
    ).not.toBeNull();
  });

  it('refuses malformed, unknown and revoked tokens', async () => {
    const token = await create('read');
    expect(await authenticateToken(h.db, 'not-a-token', h.clock.now)).toBeNull();
    expect(await authenticateToken(h.db, `exh_${'a'.repeat(32)}`, h.clock.now)).toBeNull();
    expect(await authenticateToken(h.db, token.token.toUpperCase(), h.clock.now)).toBeNull();
    await h.core.invoke('revoke_token', h.owner, { id: token.id });
    expect(await authenticateToken(h.db, token.token, h.clock.now)).toBeNull();
  });

  it('refuses the token of a member who was removed', async () => {
    const luis = await h.addMember('Luis');
    const token = await create('read', luis);
    expect(await authenticateToken(h.db, token.token, h.clock.now)).not.toBeNull();
    await h.core.invoke('remove_member', h.owner, { id: luis.memberId });
    expect(await authenticateToken(h.db, token.token, h.clock.now)).toBeNull();
  });

  it('finds the token by its SHA-256 hash: the raw token is stored nowhere', async () => {
    const token = await create('read');
    const row = await h.db.knex('tokens').where({ id: token.id }).first();
    expect(row.hash).toBe(hashToken(token.token));
    const everything = JSON.stringify([row, await h.db.knex('audit_entries').select()]);
    expect(everything).not.toContain(token.token);
  });

  it('records the last use apart from the audited tokens table, at most once a minute', async () => {
    const token = await create('read');
    const audits = await h.db.knex('audit_entries').count({ n: '*' });
    await authenticateToken(h.db, token.token, h.clock.now);
    expect(await h.db.knex('token_uses').where({ token_id: token.id }).first()).toEqual({
      token_id: token.id,
      last_used_at: h.clock.now.toISOString(),
    });
    const later = new Date(h.clock.now.getTime() + 30_000);
    await authenticateToken(h.db, token.token, later);
    expect((await h.db.knex('token_uses').where({ token_id: token.id }).first()).last_used_at).toBe(
      h.clock.now.toISOString(),
    );
    const muchLater = new Date(h.clock.now.getTime() + 61_000);
    await authenticateToken(h.db, token.token, muchLater);
    expect((await h.db.knex('token_uses').where({ token_id: token.id }).first()).last_used_at).toBe(
      muchLater.toISOString(),
    );
    expect(await h.db.knex('audit_entries').count({ n: '*' })).toEqual(audits);
  });
});
