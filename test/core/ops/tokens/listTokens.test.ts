import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { authenticateToken } from '../../../../core/auth/authenticate.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';

describe('list_tokens', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('never returns hashes or tokens, and shows the last use', async () => {
    const created = (
      await h.core.invoke('create_token', h.owner, { name: 'Claude', scope: 'read' })
    ).output;
    await authenticateToken(h.db, created.token, h.clock.now);
    const { output } = await h.core.invoke('list_tokens', h.owner, {});
    expect(output.items).toEqual([
      {
        id: created.id,
        name: 'Claude',
        scope: 'read',
        prefix: created.prefix,
        member_id: h.ownerId,
        member_name: 'Ana',
        created_at: h.clock.now.toISOString(),
        last_used_at: h.clock.now.toISOString(),
        revoked_at: null,
        expires_at: null,
      },
    ]);
    const text = JSON.stringify(output);
    expect(text).not.toContain(created.token);
    const row = await h.db.knex('tokens').where({ id: created.id }).first();
    expect(text).not.toContain(row.hash);
  });

  it('shows when a token expires', async () => {
    await h.core.invoke('create_token', h.owner, { name: 'Week', expires_in_days: 7 });
    const { output } = await h.core.invoke('list_tokens', h.owner, {});
    expect(output.items.map((t) => t.expires_at)).toEqual([
      new Date(h.clock.now.getTime() + 7 * 86_400_000).toISOString(),
    ]);
  });

  it("shows a member their own tokens and the owner everyone's", async () => {
    const luis = await h.addMember('Luis');
    await h.core.invoke('create_token', h.owner, { name: 'Ana agent' });
    await h.core.invoke('create_token', luis, { name: 'Luis agent' });
    const mine = await h.core.invoke('list_tokens', luis, {});
    expect(mine.output.items.map((t) => t.name)).toEqual(['Luis agent']);
    const all = await h.core.invoke('list_tokens', h.owner, {});
    expect(all.output.items.map((t) => `${t.name}/${t.member_name}`)).toEqual([
      'Ana agent/Ana',
      'Luis agent/Luis',
    ]);
  });

  it('hides revoked tokens unless asked', async () => {
    const kept = (await h.core.invoke('create_token', h.owner, { name: 'Kept' })).output;
    const gone = (await h.core.invoke('create_token', h.owner, { name: 'Gone' })).output;
    await h.core.invoke('revoke_token', h.owner, { id: gone.id });
    expect((await h.core.invoke('list_tokens', h.owner, {})).output.items.map((t) => t.id)).toEqual(
      [kept.id],
    );
    const all = (await h.core.invoke('list_tokens', h.owner, { include_revoked: true })).output
      .items;
    expect(all.find((t) => t.id === gone.id)?.revoked_at).toBe(h.clock.now.toISOString());
  });
});
