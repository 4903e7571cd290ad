import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { seedHousehold, type Seed } from '../../contract/seed.ts';
import { dumpDatabase } from '../../helpers/dump.ts';
import { TEST_NOW } from '../../helpers/testCore.ts';
import { json, linkTelegram, post, serve, type Served, signInitData, tma } from './harness.ts';
import { twoCores, type TwoCores } from './shared.ts';

const OWNER_TG = 3001;
const headers = () => tma(signInitData({ user: { id: OWNER_TG }, authDate: TEST_NOW }));

describe('confirm sheets: prepare → confirm once', () => {
  let s: Seed;
  let api: Served;
  beforeEach(async () => {
    s = await seedHousehold();
    await linkTelegram(s.h.core, s.owner.memberId ?? '', OWNER_TG);
    api = serve(s.h.core);
  });
  afterEach(async () => s.h.close());

  const deletes = async () =>
    (await s.h.db.knex('audit_entries').where({ op: 'delete_subscription' }).select('id')).length;

  it('prepares a change with a card Exhale wrote, writing nothing; confirm applies it once; undo takes it back', async () => {
    const before = await dumpDatabase(s.h.db);
    const prepared = await api.request(
      '/api/ops/delete_subscription',
      post({ input: { id: s.netflix }, prepare: true }, headers()),
    );
    expect(prepared.status).toBe(200);
    const { pending } = await json(prepared);
    expect(pending).toEqual({
      id: expect.any(String),
      card: { title: expect.stringContaining('Netflix'), lines: expect.any(Array) },
      expiresAt: new Date(TEST_NOW.getTime() + 600_000).toISOString(),
    });
    // The pending row is the only thing written (a flows row), no household data.
    const flows = await s.h.db.knex('flows').where({ kind: 'pending_web' });
    expect(flows).toHaveLength(1);
    await s.h.db.knex('flows').where({ kind: 'pending_web' }).delete();
    expect(await dumpDatabase(s.h.db)).toBe(before);
    await s.h.db.knex('flows').insert(flows);

    const confirmed = await api.request(`/api/pending/${pending.id}/confirm`, post({}, headers()));
    expect(confirmed.status).toBe(200);
    const first = await json(confirmed);
    expect(first).toMatchObject({
      output: expect.objectContaining({ id: s.netflix }),
      auditId: expect.any(String),
      card: pending.card,
      undo: { auditId: first.auditId },
    });
    const second = await api.request(`/api/pending/${pending.id}/confirm`, post({}, headers()));
    expect(second.status).toBe(200);
    expect(await json(second)).toMatchObject({ auditId: first.auditId, repeated: true });
    expect(await deletes()).toBe(1);

    const discard = await api.request(`/api/pending/${pending.id}/discard`, post({}, headers()));
    expect(discard.status).toBe(409);

    const undo = await api.request(
      '/api/ops/undo',
      post({ input: { ids: [first.auditId] } }, headers()),
    );
    expect(undo.status).toBe(200);
    expect(await s.h.db.knex('subscriptions').where({ id: s.netflix }).first()).toBeDefined();
  });

  it('a discarded change cannot be confirmed; a read cannot be prepared; an unknown id is 404', async () => {
    const prepared = await api.request(
      '/api/ops/pause_subscription',
      post({ input: { id: s.spotify }, prepare: true }, headers()),
    );
    const { pending } = await json(prepared);
    const discarded = await api.request(`/api/pending/${pending.id}/discard`, post({}, headers()));
    expect(await json(discarded)).toEqual({ discarded: true });
    const late = await api.request(`/api/pending/${pending.id}/confirm`, post({}, headers()));
    expect(late.status).toBe(409);
    expect(await s.h.db.knex('subscriptions').where({ id: s.spotify }).first()).toMatchObject({
      status: 'active',
    });

    const read = await api.request(
      '/api/ops/get_totals',
      post({ input: {}, prepare: true }, headers()),
    );
    expect(read.status).toBe(400);
    const unknown = await api.request('/api/pending/pnd_nope/confirm', post({}, headers()));
    expect(unknown.status).toBe(404);
  });

  it('a change prepared and then expired (10 minutes) is refused', async () => {
    const prepared = await api.request(
      '/api/ops/pause_subscription',
      post({ input: { id: s.spotify }, prepare: true }, headers()),
    );
    const { pending } = await json(prepared);
    s.h.clock.now = new Date(TEST_NOW.getTime() + 600_001);
    const late = await api.request(`/api/pending/${pending.id}/confirm`, post({}, headers()));
    expect(late.status).toBe(409);
    expect((await json(late)).message).toBeTruthy();
  });
});

describe('confirm sheets across processes', () => {
  let two: TwoCores;
  beforeEach(async () => {
    two = await twoCores();
  });
  afterEach(async () => two.close());

  it('two servers confirming one change at once apply it once, and both answer what was applied', async () => {
    await linkTelegram(two.a, two.ownerOn('a').memberId ?? '', OWNER_TG);
    const a = serve(two.a);
    const b = serve(two.b);
    const created = await two.a.invoke('create_subscription', two.ownerOn('a'), {
      name: 'Netflix',
      amount: '15.99',
      first_charge_date: '2026-01-05',
    });
    for (let round = 0; round < 3; round += 1) {
      const prepared = await a.request(
        '/api/ops/update_subscription',
        post(
          { input: { id: created.output.id, amount: `${16 + round}.00` }, prepare: true },
          headers(),
        ),
      );
      const { pending } = await json(prepared);
      const answers = await Promise.all([
        a.request(`/api/pending/${pending.id}/confirm`, post({}, headers())),
        b.request(`/api/pending/${pending.id}/confirm`, post({}, headers())),
      ]);
      expect(answers.map((r) => r.status)).toEqual([200, 200]);
      const bodies = await Promise.all(answers.map((r) => json(r)));
      expect(bodies[0].auditId).toBe(bodies[1].auditId);
      expect(bodies.filter((body) => body.repeated === true)).toHaveLength(1);
    }
    const updates = await two.shared
      .open()
      .knex('audit_entries')
      .where({ op: 'update_subscription' });
    expect(updates).toHaveLength(3);
  });
});
