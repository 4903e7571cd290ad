import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { dumpDatabase } from '../../helpers/dump.ts';
import { json, post, serve, type Served } from './harness.ts';
import { twoCores, type TwoCores } from './shared.ts';

/**
 * `POST /api/join`: a person with only a browser joins with an invite's code and their name, and is
 * signed in, through join_household on the web surface; two servers (processes) on one database
 * (a SQLite file, or a PostgreSQL schema with each its own event bus), so a code used on one is
 * refused on the other, and two joins at the same moment with one code make one member.
 */
describe('Mini App API: joining a household from a browser', () => {
  let two: TwoCores;
  let onA: Served;
  let onB: Served;
  let code: string;
  const ORIGIN = { origin: 'http://localhost' };

  const members = async (): Promise<string[]> =>
    (
      (await two.a.db.knex('members').where({ household_id: two.householdId }).select('name')) as {
        name: string;
      }[]
    )
      .map((m) => m.name)
      .sort();

  beforeEach(async () => {
    two = await twoCores();
    code = (await two.a.invoke('create_invite', two.ownerOn('a'), {})).output.code;
    onA = serve(two.a);
    onB = serve(two.b);
  });
  afterEach(async () => two.close());

  it('joins as a member named as typed, in the language chosen, and signs the browser in', async () => {
    const res = await onA.request(
      '/api/join',
      post({ code, name: 'Zoe', language: 'es' }, { ...ORIGIN, 'user-agent': 'Firefox/130.0' }),
    );
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ joined: true, household: 'Home', member: 'Zoe' });
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^exhale_session=exs_/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    const cookie = setCookie.split(';')[0] ?? '';

    // Signed in as Zoe, a member of the household, in Spanish; on the other process too.
    for (const api of [onA, onB]) {
      const me = await api.request('/api/me', { headers: { cookie } });
      expect(me.status).toBe(200);
      expect(await json(me)).toMatchObject({
        member: { name: 'Zoe', role: 'member', locale: 'es' },
        household: { id: two.householdId },
      });
    }
    expect(await members()).toEqual(['Ana', 'Zoe']);
    // Audited as a join through the web app; listed in Zoe's signed-in browsers.
    const entry = (await two.a.db
      .knex('audit_entries')
      .where({ op: 'join_household' })
      .first('channel', 'summary')) as { channel: string; summary: string };
    expect(entry).toEqual({ channel: 'web', summary: 'Zoe joined' });
    const sessions = await onB.request(
      '/api/ops/list_web_sessions',
      post({ input: {} }, { cookie, ...ORIGIN }),
    );
    expect((await json(sessions)).output.items).toMatchObject([{ browser: 'Firefox' }]);
  });

  it('refuses a used code on another process, and a second browser with the same code, changing nothing', async () => {
    const first = await onA.request('/api/join', post({ code, name: 'Zoe' }, ORIGIN));
    expect(first.status).toBe(200);
    const before = await dumpDatabase(two.b.db);
    const again = await onB.request(
      '/api/join',
      post({ code, name: 'Eve' }, { ...ORIGIN, 'accept-language': 'es-ES,es;q=0.9' }),
    );
    expect(again.status).toBe(404);
    const body = await json(again);
    expect(body.error).toBe('not_found');
    // In the browser's language: nobody is signed in to have another.
    expect(body.message).toMatch(/invitación/i);
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await dumpDatabase(two.b.db)).toBe(before);
  });

  it('lets one of two joins at the same moment with one code through, one on each process', async () => {
    const [a, b] = await Promise.all([
      onA.request('/api/join', post({ code, name: 'Zoe' }, ORIGIN)),
      onB.request('/api/join', post({ code, name: 'Eve' }, ORIGIN)),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 404]);
    const winner = a.status === 200 ? 'Zoe' : 'Eve';
    expect(await members()).toEqual(['Ana', winner].sort());
    const sessions = (await two.a.db.knex('web_sessions').select('member_id')) as unknown[];
    expect(sessions).toHaveLength(1);
    const invite = (await two.a.db.knex('invites').where({ code }).first('used_by')) as {
      used_by: string;
    };
    const used = (await two.a.db.knex('members').where({ id: invite.used_by }).first('name')) as {
      name: string;
    };
    expect(used.name).toBe(winner);
  });

  it("says what is wrong with a name under its field, in the browser's language, and keeps the invite", async () => {
    const before = await dumpDatabase(two.a.db);
    const res = await onA.request(
      '/api/join',
      post({ code, name: '   ' }, { ...ORIGIN, 'accept-language': 'es' }),
    );
    expect(res.status).toBe(400);
    const body = await json(res);
    expect(body.field).toBe('name');
    expect(body.issues).toEqual([{ path: ['name'], message: 'No puede estar vacío.' }]);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await dumpDatabase(two.a.db)).toBe(before);
    expect((await onA.request('/api/join', post({ code, name: 'Zoe' }, ORIGIN))).status).toBe(200);
  });

  it('refuses a join from another site or without an Origin: 403, nothing written', async () => {
    const before = await dumpDatabase(two.a.db);
    const refused: Record<string, string>[] = [{ origin: 'https://evil.example' }, {}];
    for (const headers of refused) {
      const res = await onA.request('/api/join', post({ code, name: 'Mallory' }, headers));
      expect(res.status).toBe(403);
    }
    expect(await dumpDatabase(two.a.db)).toBe(before);
  });

  it('is not a way in for a member: join_household through the op route is refused (already in a household)', async () => {
    const link = (await two.a.invoke('create_sign_in_link', two.ownerOn('a'), {})).output;
    const signIn = await onA.request('/api/session', post({ code: link.code }, {}));
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const res = await onA.request(
      '/api/ops/join_household',
      post({ input: { code, name: 'Ana again' } }, { cookie, ...ORIGIN }),
    );
    expect(res.status).toBe(409);
    expect(await members()).toEqual(['Ana']);
  });
});
