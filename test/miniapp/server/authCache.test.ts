import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { newcomerActor } from '../../../core/kernel/actor.ts';
import { TEST_NOW } from '../../helpers/testCore.ts';
import { json, linkTelegram, post, serve, type Served, signInitData, tma } from './harness.ts';
import { twoCores, type TwoCores } from './shared.ts';

const ANA = 4001;
const BEN = 4002;
const as = (id: number) => tma(signInitData({ user: { id }, authDate: TEST_NOW }));

/**
 * Who a Telegram user is comes from the read cache on the web API's hot path (no query on SQLite
 * while nothing changed): a change made anywhere (this server, another process on the same
 * database) still counts from the very next request, as when it was read on every request.
 */
describe('Mini App API: who is calling, while another process changes it', () => {
  let two: TwoCores;
  let api: Served;
  let ben: string;
  beforeEach(async () => {
    two = await twoCores();
    const owner = two.ownerOn('b');
    await linkTelegram(two.a, owner.memberId ?? '', ANA);
    const invite = await two.b.invoke('create_invite', owner, {});
    const joined = await two.b.invoke('join_household', newcomerActor('telegram', 'en'), {
      code: invite.output.code,
      name: 'Ben',
      language: 'en',
    });
    ben = joined.output.member.id;
    await linkTelegram(two.a, ben, BEN);
    api = serve(two.a);
  });
  afterEach(async () => two.close());

  const me = async (id: number) => api.request('/api/me', { headers: as(id) });

  it('a member removed by another process is refused on the next request', async () => {
    expect((await me(BEN)).status).toBe(200);
    expect((await me(BEN)).status).toBe(200);
    await two.b.invoke('remove_member', two.ownerOn('b'), { id: ben });
    const res = await me(BEN);
    expect(res.status).toBe(401);
    expect(await json(res)).toMatchObject({ error: 'unauthenticated', reason: 'invalid' });
    expect((await me(ANA)).status).toBe(200);
  });

  it('a language or role changed by another process shows on the next request', async () => {
    expect((await json(await me(BEN))).member).toMatchObject({ locale: 'en', role: 'member' });
    await two.b.invoke('update_member', two.ownerOn('b'), { id: ben, language: 'es' });
    expect((await json(await me(BEN))).member).toMatchObject({ locale: 'es', role: 'member' });
    await two.b.invoke('update_member', two.ownerOn('b'), { id: ben, role: 'owner' });
    expect((await json(await me(BEN))).member).toMatchObject({ role: 'owner' });
  });

  it('a change through this server counts at once too', async () => {
    expect((await me(BEN)).status).toBe(200);
    const removed = await api.request(
      '/api/ops/remove_member',
      post({ input: { id: ben } }, as(ANA)),
    );
    expect(removed.status).toBe(200);
    expect((await me(BEN)).status).toBe(401);
  });

  it('an account linked after a refusal is let in at once', async () => {
    const CARLA = 4003;
    expect((await me(CARLA)).status).toBe(401);
    await linkTelegram(two.a, ben, CARLA);
    expect((await me(CARLA)).status).toBe(200);
  });

  it('requests in flight while another process removes the member answer 200 or a refusal, and every later one is refused', async () => {
    const call = () => api.request('/api/ops/list_categories', post({ input: {} }, as(BEN)));
    const during = await Promise.all([
      ...Array.from({ length: 8 }, call),
      two.b.invoke('remove_member', two.ownerOn('b'), { id: ben }).then(() => null),
      ...Array.from({ length: 8 }, call),
    ]);
    // Refused at sign-in (401) or, signed in just before, by the kernel's membership check (403).
    for (const res of during) if (res) expect([200, 401, 403]).toContain(res.status);
    const after = await Promise.all(Array.from({ length: 8 }, call));
    expect(after.map((r) => r.status)).toEqual(Array.from({ length: 8 }, () => 401));
  });
});
