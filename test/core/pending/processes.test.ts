import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { pendingChanges } from '../../../core/pending/index.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';
import { type TwoProcesses, twoProcesses } from './helpers.ts';

const TTL = 30 * 60_000;
const netflix = { name: 'Netflix', amount: '15.99' };

const count = async (db: { knex: TestHousehold['db']['knex'] }, table: string, where = {}) =>
  Number((await db.knex(table).where(where).count({ n: '*' }))[0]?.n);

describe('a pending change confirmed at once by two callers', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('is applied once; the other is refused and the change stays applied', async () => {
    const web = pendingChanges(h.core, { surface: 'web', ttlMs: TTL });
    const { change } = await web.prepare(h.owner, h.core.op('create_subscription'), netflix);
    const outcomes = await Promise.allSettled([
      web.confirm(h.owner, change.id),
      web.confirm(h.owner, change.id),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const [refused] = outcomes.filter((o) => o.status === 'rejected');
    expect(refused).toMatchObject({ reason: { code: 'conflict', key: 'pending.used' } });
    expect(await count(h.db, 'subscriptions', { name: 'Netflix' })).toBe(1);
    expect(await count(h.db, 'audit_entries', { op: 'create_subscription' })).toBe(1);
    expect((await web.get(h.owner, change.id)).payload.status).toBe('confirmed');
  });

  it('leaves a change confirmable when the process fails between its claim and the commit', async () => {
    const web = pendingChanges(h.core, { surface: 'web', ttlMs: TTL });
    const { change } = await web.prepare(h.owner, h.core.op('create_subscription'), netflix);
    const invoke = h.core.invoke.bind(h.core);
    // The crash: right after the service's own claim, inside the same transaction, before commit.
    const crash = vi.spyOn(h.core, 'invoke').mockImplementation((op, actor, input, options) =>
      invoke(op, actor, input, {
        ...options,
        beforeCommit: async (trx, applied) => {
          await options?.beforeCommit?.(trx, applied);
          throw new Error('the process died');
        },
      }),
    );
    await expect(web.confirm(h.owner, change.id)).rejects.toThrow('the process died');
    crash.mockRestore();
    // Nothing claimed-but-unapplied: no subscription, no audit entry, the change still open.
    expect(await count(h.db, 'subscriptions', { name: 'Netflix' })).toBe(0);
    expect(await count(h.db, 'audit_entries', { op: 'create_subscription' })).toBe(0);
    const open = await web.open(h.owner, change.id);
    expect(open).toMatchObject({ usedAt: null, payload: { status: 'pending', audit_id: null } });
    await web.confirm(h.owner, change.id);
    expect(await count(h.db, 'subscriptions', { name: 'Netflix' })).toBe(1);
  });
});

describe('a pending change across two processes', () => {
  let p: TwoProcesses;
  beforeEach(async () => {
    p = await twoProcesses();
  });
  afterEach(async () => p.close());

  const services = () => ({
    first: pendingChanges(p.first, { surface: 'assistant', ttlMs: TTL }),
    second: pendingChanges(p.second, { surface: 'assistant', ttlMs: TTL }),
  });

  it('is confirmed and undone by a second process', async () => {
    const { first, second } = services();
    const { change } = await first.prepare(p.owner, p.first.op('create_subscription'), netflix);
    const applied = await second.confirm(p.owner, change.id);
    expect(applied.result.auditId).not.toBeNull();
    expect(await count(p.first.db, 'subscriptions', { name: 'Netflix' })).toBe(1);
    await expect(first.confirm(p.owner, change.id)).rejects.toMatchObject({ key: 'pending.used' });
    await first.undo(p.owner, change.id);
    expect(await count(p.second.db, 'subscriptions', { name: 'Netflix' })).toBe(0);
  });

  it('is applied once when both processes confirm it at the same time', async () => {
    const { first, second } = services();
    const { change } = await first.prepare(p.owner, p.first.op('create_subscription'), netflix);
    const outcomes = await Promise.allSettled([
      first.confirm(p.owner, change.id),
      second.confirm(p.owner, change.id),
    ]);
    // The loser is refused by the claim (or, on SQLite, by the file's write lock): never applied.
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(await count(p.first.db, 'subscriptions', { name: 'Netflix' })).toBe(1);
    expect(await count(p.first.db, 'audit_entries', { op: 'create_subscription' })).toBe(1);
    expect((await second.get(p.owner, change.id)).payload.status).toBe('confirmed');
  });
});
