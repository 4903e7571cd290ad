import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { newcomerActor } from '../../../core/kernel/actor.ts';
import { json, post, serve, type Served } from './harness.ts';
import { twoCores, type TwoCores } from './shared.ts';

/**
 * A browser's session cookie is looked up through the read cache on the web API's hot path, as
 * strictly as an agent token: on SQLite no query while nothing changed, on PostgreSQL read every
 * time; a session ended, or a member removed or changed, anywhere (this server, another process
 * on the same database) counts from the very next request.
 */
describe('Mini App API: a session cookie, while another process ends or changes it', () => {
  let two: TwoCores;
  /** The server of process a, and of process b, on one database. */
  let onA: Served;
  let onB: Served;
  let ben: string;
  const ORIGIN = { origin: 'http://localhost' };

  /** Signs a member in through process b's server; the cookie header it set. */
  async function signIn(memberActorId: 'owner' | 'ben'): Promise<string> {
    const owner = two.ownerOn('b');
    const actor =
      memberActorId === 'owner' ? owner : { ...owner, memberId: ben, role: 'member' as const };
    const link = (await two.b.invoke('create_sign_in_link', actor, {})).output;
    const res = await onB.request('/api/session', post({ code: link.code }, {}));
    expect(res.status).toBe(200);
    return (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  }

  const me = (api: Served, cookie: string) => api.request('/api/me', { headers: { cookie } });

  /** The session lookups process a sends while `work` runs. */
  async function sessionQueries(work: () => Promise<unknown>): Promise<number> {
    let seen = 0;
    const count = (query: { sql: string }) => {
      if (query.sql.includes('web_sessions')) seen += 1;
    };
    two.a.db.knex.on('query', count);
    try {
      await work();
    } finally {
      two.a.db.knex.off('query', count);
    }
    return seen;
  }

  beforeEach(async () => {
    two = await twoCores();
    const invite = await two.b.invoke('create_invite', two.ownerOn('b'), {});
    const joined = await two.b.invoke('join_household', newcomerActor('telegram', 'en'), {
      code: invite.output.code,
      name: 'Ben',
      language: 'en',
    });
    ben = joined.output.member.id;
    onA = serve(two.a);
    onB = serve(two.b);
  });
  afterEach(async () => two.close());

  it('on SQLite a known session is not looked up again while nothing changed; on PostgreSQL it is, every time', async () => {
    const cookie = await signIn('ben');
    // The first request finds its household, the second fills the household's cache entry.
    for (let i = 0; i < 2; i += 1) expect((await me(onA, cookie)).status).toBe(200);
    const queries = await sessionQueries(async () => {
      for (let i = 0; i < 3; i += 1) expect((await me(onA, cookie)).status).toBe(200);
    });
    expect(queries).toBe(two.shared.dialect === 'sqlite' ? 0 : 3);
  });

  it('a session ended by another process is refused on the next request, and only that one', async () => {
    const ours = await signIn('ben');
    const other = await signIn('owner');
    for (const cookie of [ours, ours, other]) expect((await me(onA, cookie)).status).toBe(200);
    const signOut = await onB.request('/api/session', {
      method: 'DELETE',
      headers: { cookie: ours, ...ORIGIN },
    });
    expect(signOut.status).toBe(200);
    const refused = await me(onA, ours);
    expect(refused.status).toBe(401);
    expect(await json(refused)).toMatchObject({ error: 'unauthenticated', reason: 'invalid' });
    expect((await me(onA, other)).status).toBe(200);
  });

  it('a session ended through this server is refused at once', async () => {
    const cookie = await signIn('ben');
    const { sessionId } = await json(await me(onA, cookie));
    const ended = await onA.request(
      '/api/ops/end_web_session',
      post({ input: { id: sessionId } }, { cookie, ...ORIGIN }),
    );
    expect(ended.status).toBe(200);
    expect((await me(onA, cookie)).status).toBe(401);
  });

  it('an ending that rolls back (a dry run in the other process) leaves the session signed in', async () => {
    const cookie = await signIn('ben');
    const { sessionId } = await json(await me(onA, cookie));
    const dry = await onB.request(
      '/api/ops/end_web_session',
      post({ input: { id: sessionId }, dryRun: true }, { cookie, ...ORIGIN }),
    );
    expect(dry.status).toBe(200);
    expect((await me(onA, cookie)).status).toBe(200);
    expect((await me(onB, cookie)).status).toBe(200);
  });

  it('the member removed by another process is refused; a language changed there shows at once', async () => {
    const cookie = await signIn('ben');
    expect((await json(await me(onA, cookie))).member).toMatchObject({ locale: 'en' });
    await two.b.invoke('update_member', two.ownerOn('b'), { id: ben, language: 'es' });
    expect((await json(await me(onA, cookie))).member).toMatchObject({ locale: 'es' });
    await two.b.invoke('remove_member', two.ownerOn('b'), { id: ben });
    expect((await me(onA, cookie)).status).toBe(401);
  });

  it('requests in flight while another process ends the session answer 200 or 401, and every later one is refused', async () => {
    const cookie = await signIn('ben');
    const { sessionId } = await json(await me(onA, cookie));
    const call = () =>
      onA.request('/api/ops/list_categories', post({ input: {} }, { cookie, ...ORIGIN }));
    const during = await Promise.all([
      ...Array.from({ length: 8 }, call),
      two.b
        .invoke(
          'end_web_session',
          { ...two.ownerOn('b'), memberId: ben, role: 'member' },
          {
            id: sessionId,
          },
        )
        .then(() => null),
      ...Array.from({ length: 8 }, call),
    ]);
    for (const res of during) if (res) expect([200, 401]).toContain(res.status);
    const after = await Promise.all(Array.from({ length: 8 }, call));
    expect(after.map((r) => r.status)).toEqual(Array.from({ length: 8 }, () => 401));
  });
});
