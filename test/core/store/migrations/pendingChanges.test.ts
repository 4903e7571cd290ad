import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { down, up } from '../../../../core/store/migrations/202612010001_pending_changes.ts';
import { pendingChanges } from '../../../../core/pending/index.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';

/**
 * Migration 202612010001: confirmations and proposals stored before the pending-change service are
 * still usable after it.
 */
describe('migrating confirmations and proposals to pending changes', () => {
  let h: TestHousehold;
  let subId: string;
  beforeEach(async () => {
    h = await createTestHousehold();
    subId = (
      await h.core.invoke('create_subscription', h.owner, { name: 'Netflix', amount: '15.99' })
    ).output.id;
  });
  afterEach(async () => h.close());

  const legacy = (id: string, kind: string, payload: unknown, used: string | null = null) =>
    h.db.knex('flows').insert({
      id,
      household_id: h.householdId,
      member_id: h.ownerId,
      kind,
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      expires_at: new Date(h.clock.now.getTime() + 600_000).toISOString(),
      used_at: used,
      created_at: h.clock.now.toISOString(),
    });

  it("keeps an assistant's proposal confirmable, exactly as its card showed", async () => {
    const assistant = pendingChanges(h.core, { surface: 'assistant', ttlMs: 600_000 });
    // A fingerprint from the service's own preview stands for the one the old code stored.
    const shown = await assistant.preview(h.owner, h.core.op('pause_subscription'), { id: subId });
    await legacy('prp_1', 'proposal', {
      op: 'pause_subscription',
      args: { id: subId },
      title: 'Pause Netflix?',
      lines: ['⏸ Netflix'],
      destructive: false,
      channel: 'telegram',
      status: 'pending',
      audit_id: null,
      decided_at: null,
      undone_at: null,
      changes: shown.fingerprint,
    });
    await up(h.db.knex);
    const change = await assistant.open(h.owner, 'prp_1');
    expect(change.payload).toEqual({
      op: 'pause_subscription',
      args: { id: subId },
      token_id: null,
      channel: 'telegram',
      changes: shown.fingerprint,
      card: { title: 'Pause Netflix?', lines: ['⏸ Netflix'], destructive: false },
      status: 'pending',
      audit_id: null,
      decided_at: null,
      undone_at: null,
    });
    await assistant.confirm(h.owner, 'prp_1');
    expect((await h.db.knex('subscriptions').where({ id: subId }).first()).status).toBe('paused');
  });

  it("keeps an agent's confirmation bound to its token, used or not, and drops unreadable rows", async () => {
    await legacy('cfm_1', 'confirmation', {
      op: 'delete_subscription',
      args: { id: subId },
      token_id: 'tok_1',
      changes: 'x',
    });
    await legacy(
      'cfm_2',
      'confirmation',
      { op: 'delete_subscription', args: { id: subId }, token_id: 'tok_1', changes: 'x' },
      h.clock.now.toISOString(),
    );
    await legacy('cfm_3', 'confirmation', '{broken');
    await up(h.db.knex);
    const rows = await h.db.knex('flows').whereIn('id', ['cfm_1', 'cfm_2', 'cfm_3']).orderBy('id');
    expect(rows.map((r: { id: string; kind: string }) => [r.id, r.kind])).toEqual([
      ['cfm_1', 'pending_mcp'],
      ['cfm_2', 'pending_mcp'],
    ]);
    expect(JSON.parse(rows[0].payload)).toMatchObject({ token_id: 'tok_1', status: 'pending' });
    expect(JSON.parse(rows[1].payload)).toMatchObject({ status: 'confirmed' });
  });

  it('goes back to the old rows on down', async () => {
    await legacy('prp_1', 'proposal', {
      op: 'pause_subscription',
      args: { id: subId },
      title: 'Pause Netflix?',
      lines: [],
      destructive: false,
      channel: 'telegram',
      status: 'discarded',
      audit_id: null,
      decided_at: null,
      undone_at: null,
      changes: 'x',
    });
    await up(h.db.knex);
    await down(h.db.knex);
    const row = await h.db.knex('flows').where({ id: 'prp_1' }).first();
    expect(row.kind).toBe('proposal');
    expect(JSON.parse(row.payload)).toMatchObject({ title: 'Pause Netflix?', status: 'discarded' });
  });
});
