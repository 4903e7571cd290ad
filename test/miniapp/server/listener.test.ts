import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { listen, type HttpHost } from '../../../bot/http/server.ts';
import { createTestHousehold, TEST_NOW, type TestHousehold } from '../../helpers/testCore.ts';
import { linkTelegram, serve, signInitData, tma } from './harness.ts';

const ANA = 6001;

/**
 * The op routes over a real listener (node:http through @hono/node-server, as `npm start` serves
 * them): the answer goes out whole, with its length, `no-store` and the request's id, for a
 * success and for a refusal alike.
 */
describe('Mini App API over a real listener', () => {
  let h: TestHousehold;
  let host: HttpHost;
  beforeEach(async () => {
    h = await createTestHousehold();
    await linkTelegram(h.core, h.ownerId, ANA);
    host = await listen(serve(h.core).edge, { port: 0 });
  });
  afterEach(async () => {
    await host.close();
    await h.close();
  });

  const call = (name: string, body: unknown) =>
    fetch(`${host.url}/api/ops/${name}`, {
      method: 'POST',
      headers: tma(signInitData({ user: { id: ANA }, authDate: TEST_NOW }), {
        'x-request-id': 'req-42',
      }),
      body: JSON.stringify(body),
    });

  it('answers an op as core.invoke does, with Content-Length, no-store and the request id', async () => {
    const created = await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
      first_charge_date: '2026-04-01',
    });
    const id = created.output.id;
    const res = await call('get_subscription', { input: { id } });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-request-id')).toBe('req-42');
    const direct = await h.core.invoke('get_subscription', { ...h.owner, channel: 'web' }, { id });
    expect(JSON.parse(text)).toEqual({ output: direct.output, auditId: null, changes: 0 });
  });

  it('a refusal carries the same headers and the sentence', async () => {
    const res = await call('get_subscription', { input: { id: 'sub_nope' } });
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-request-id')).toBe('req-42');
    expect(await res.json()).toMatchObject({ error: 'not_found', message: expect.any(String) });
  });
});
