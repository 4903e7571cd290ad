import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { hashToken } from '../../../../core/auth/tokens.ts';
import { offeredOn } from '../../../../core/kernel/op.ts';
import { createToken } from '../../../../core/ops/tokens/createToken.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';

describe('create_token', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('returns the raw token once and stores only its hash and prefix', async () => {
    const { output, auditId } = await h.core.invoke('create_token', h.owner, {
      name: 'Claude Desktop',
      scope: 'write',
    });
    expect(output).toMatchObject({
      name: 'Claude Desktop',
      scope: 'write',
      created_at: h.clock.now.toISOString(),
    });
    expect(output.token).toMatch(/^exh_[0-9a-z]{32}$/);
    expect(output.prefix).toBe(output.token.slice(0, 10));
    const row = await h.db.knex('tokens').where({ id: output.id }).first();
    expect(row).toMatchObject({
      member_id: h.ownerId,
      household_id: h.householdId,
      scope: 'write',
      hash: hashToken(output.token),
      revoked_at: null,
    });
    expect(JSON.stringify(row)).not.toContain(output.token);
    const audit = await h.db.knex('audit_entries').where({ id: auditId }).first();
    expect(audit.summary).toBe('Created agent token Claude Desktop (can change)');
    expect(JSON.stringify(audit)).not.toContain(output.token);
  });

  it('defaults to the read scope', async () => {
    const { output } = await h.core.invoke('create_token', h.owner, { name: 'Reader' });
    expect(output.scope).toBe('read');
  });

  it('is for people only: excluded from MCP and the assistant with a reason, and needs a trusted actor', async () => {
    expect(offeredOn(createToken, 'mcp')).toBe(false);
    expect(offeredOn(createToken, 'assistant')).toBe(false);
    expect(createToken.exclude?.mcp).toMatch(/secret/);
    const agent = {
      ...h.owner,
      kind: 'agent' as const,
      scope: 'write' as const,
      channel: 'mcp' as const,
    };
    await expect(h.core.invoke('create_token', agent, { name: 'x' })).rejects.toMatchObject({
      code: 'insufficient_scope',
    });
  });

  it("refuses an unknown scope in the member's language", async () => {
    const luis = await h.addMember('Luis', 'es');
    const error = await h.core
      .invoke('create_token', luis, { name: 'x', scope: 'admin' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'invalid_input' });
    expect((error as { render: (l: 'es') => string }).render('es')).toContain('scope');
  });
});
