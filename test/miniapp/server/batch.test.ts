import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { dumpDatabase } from '../../helpers/dump.ts';
import { createTestHousehold, TEST_NOW, type TestHousehold } from '../../helpers/testCore.ts';
import { json, linkTelegram, post, serve, type Served, signInitData, tma } from './harness.ts';

const ANA = 1101;
const headers = (extra: Record<string, string> = {}) =>
  tma(signInitData({ user: { id: ANA }, authDate: TEST_NOW }), extra);

describe('POST /api/batch: several reads in one round trip', () => {
  let h: TestHousehold;
  let s: Served;
  let netflix: string;
  beforeEach(async () => {
    h = await createTestHousehold();
    await linkTelegram(h.core, h.ownerId, ANA);
    s = serve(h.core);
    const created = await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
      first_charge_date: '2026-01-05',
    });
    netflix = created.output.id;
  });
  afterEach(async () => h.close());

  it('answers /api/me and each op as their own routes would, in the order asked', async () => {
    const calls = [
      { op: 'get_totals', input: { group_by: 'category' } },
      { op: 'get_upcoming', input: { days: 30 } },
      { op: 'get_subscription', input: { id: netflix } },
    ];
    const res = await s.request('/api/batch', post({ me: true, calls }, headers()));
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(body.me).toEqual(await json(await s.request('/api/me', { headers: headers() })));
    expect(body.results).toHaveLength(3);
    for (const [i, call] of calls.entries()) {
      const alone = await json(
        await s.request(`/api/ops/${call.op}`, post({ input: call.input }, headers())),
      );
      expect(body.results[i]).toEqual(alone);
    }
  });

  it('without me, answers only the calls; an empty batch is only who is signed in', async () => {
    const only = await json(
      await s.request('/api/batch', post({ calls: [{ op: 'list_categories' }] }, headers())),
    );
    expect(Object.keys(only)).toEqual(['results']);
    expect(only.results[0].output).toBeDefined();
    const me = await json(await s.request('/api/batch', post({ me: true, calls: [] }, headers())));
    expect(me).toMatchObject({ me: { member: { id: h.ownerId } }, results: [] });
  });

  it('refuses writes in a batch, call by call, and writes nothing', async () => {
    const before = await dumpDatabase(h.db);
    const res = await s.request(
      '/api/batch',
      post(
        {
          calls: [
            { op: 'delete_subscription', input: { id: netflix } },
            { op: 'get_subscription', input: { id: netflix } },
          ],
        },
        headers(),
      ),
    );
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.results[0]).toEqual({
      status: 400,
      error: 'invalid_input',
      message: expect.stringContaining('/api/ops/delete_subscription'),
    });
    expect(body.results[1].output).toMatchObject({ id: netflix, name: 'Netflix' });
    expect(await dumpDatabase(h.db)).toEqual(before);
  });

  it('answers each bad call with the status and sentence its own route gives; the others still answer', async () => {
    const res = await s.request(
      '/api/batch',
      post(
        {
          calls: [
            { op: 'no_such_op' },
            { op: 'create_household', input: {} },
            { op: 'get_subscription', input: { id: 42 } },
            { op: 'get_subscription', input: { id: 'sub_missing' } },
            { op: 'list_categories' },
          ],
        },
        headers(),
      ),
    );
    const { results } = await json(res);
    expect(results.map((r: { status?: number }) => r.status ?? 200)).toEqual([
      404, 403, 400, 404, 200,
    ]);
    expect(results[2]).toMatchObject({ error: 'invalid_input', field: 'id' });
    for (const [i, call] of [
      { op: 'get_subscription', input: { id: 42 } },
      { op: 'get_subscription', input: { id: 'sub_missing' } },
    ].entries()) {
      const alone = await s.request(`/api/ops/${call.op}`, post({ input: call.input }, headers()));
      expect({ status: alone.status, ...(await json(alone)) }).toEqual(results[i + 2]);
    }
  });

  it('speaks the member’s language in the answers it refuses', async () => {
    await h.core.invoke('update_member', h.owner, { id: h.ownerId, language: 'es' });
    const { results } = await json(
      await s.request(
        '/api/batch',
        post({ calls: [{ op: 'delete_subscription', input: { id: netflix } }] }, headers()),
      ),
    );
    expect(results[0].message).toContain('no puede ir en un lote');
  });

  it('is refused whole for a caller who is not signed in, a malformed body, or too many calls', async () => {
    const anonymous = await s.request(
      '/api/batch',
      post({ calls: [] }, { 'accept-language': 'es' }),
    );
    expect(anonymous.status).toBe(401);
    expect(await json(anonymous)).toMatchObject({ error: 'unauthenticated', reason: 'missing' });
    for (const body of [
      { calls: 'get_totals' },
      { calls: [{ name: 'get_totals' }] },
      { calls: Array.from({ length: 9 }, () => ({ op: 'list_categories' })) },
      { calls: [], extra: true },
    ]) {
      const res = await s.request('/api/batch', post(body, headers()));
      expect(res.status).toBe(400);
      expect(await json(res)).toMatchObject({
        error: 'invalid_input',
        message: expect.stringContaining('at most 8 calls'),
      });
    }
    const notJson = await s.request('/api/batch', {
      method: 'POST',
      headers: headers(),
      body: '{',
    });
    expect(notJson.status).toBe(400);
  });
});
