import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { dumpDatabase } from '../../helpers/dump.ts';
import { createTestHousehold, TEST_NOW, type TestHousehold } from '../../helpers/testCore.ts';
import { json, linkTelegram, post, serve, type Served, signInitData, tma } from './harness.ts';

const ANA = 1001;

describe('Mini App API: who is calling', () => {
  let h: TestHousehold;
  let s: Served;
  beforeEach(async () => {
    h = await createTestHousehold();
    await linkTelegram(h.core, h.ownerId, ANA);
    s = serve(h.core);
  });
  afterEach(async () => h.close());

  const initData = (authDate = TEST_NOW, id = ANA) => signInitData({ user: { id }, authDate });

  it('inside Telegram, signed init data makes the call as the linked member', async () => {
    const res = await s.request('/api/me', { headers: tma(initData()) });
    expect(res.status).toBe(200);
    const me = await json(res);
    expect(me).toMatchObject({
      member: { id: h.ownerId, name: 'Ana', role: 'owner', locale: 'en' },
      household: {
        id: h.householdId,
        name: 'Test home',
        currency: 'EUR',
        timeZone: 'Europe/Madrid',
      },
      telegram: true,
      publicUrl: 'http://localhost',
      mcpUrl: 'http://localhost/mcp',
    });
    const names = me.ops.map((op: { name: string }) => op.name);
    expect(names).toContain('get_subscription');
    expect(names).not.toContain('create_household');
    expect(me.ops.find((op: { name: string }) => op.name === 'update_subscription')).toEqual({
      name: 'update_subscription',
      title: expect.any(String),
      effect: 'write',
      financial: 'depends',
    });
  });

  it('refuses tampered init data, another bot’s, and data older than 24 hours', async () => {
    const good = initData();
    const tampered = good.replace('%22id%22%3A1001', '%22id%22%3A1002');
    expect(tampered).not.toBe(good);
    for (const [data, reason] of [
      [tampered, 'invalid'],
      [signInitData({ user: { id: ANA }, authDate: TEST_NOW }, '999:other-bot'), 'invalid'],
      [initData(new Date(TEST_NOW.getTime() - 86_401_000)), 'expired'],
      ['hash=00', 'invalid'],
    ] as const) {
      const res = await s.request('/api/me', { headers: tma(data) });
      expect(res.status).toBe(401);
      expect(await json(res)).toMatchObject({ error: 'unauthenticated', reason });
    }
    const fresh = await s.request('/api/me', {
      headers: tma(initData(new Date(TEST_NOW.getTime() - 86_399_000))),
    });
    expect(fresh.status).toBe(200);
  });

  it('a Telegram user with no household is told to /start the bot', async () => {
    const res = await s.request('/api/me', { headers: tma(initData(TEST_NOW, 4242)) });
    expect(res.status).toBe(401);
    expect((await json(res)).message).toContain('/start');
  });

  it('with no credentials answers 401 with a sentence in the browser’s language', async () => {
    const en = await s.request('/api/me', { headers: { 'accept-language': 'en-GB' } });
    expect(en.status).toBe(401);
    expect(await json(en)).toEqual({
      error: 'unauthenticated',
      reason: 'missing',
      message: expect.stringContaining('You are not signed in'),
      bot: true,
    });
    const es = await s.request('/api/me', {
      headers: { 'accept-language': 'es-AR,es;q=0.9,en;q=0.5' },
    });
    expect((await json(es)).message).toContain('No has iniciado sesión');
    const junk = await s.request('/api/me', { headers: { cookie: 'exhale_session=forged' } });
    expect(await json(junk)).toMatchObject({ reason: 'invalid' });
  });

  it('says on a 401 when no Telegram bot serves this server, so sign-in tells only the ways that work', async () => {
    const noBot = serve(h.core, { noBot: true });
    expect(await json(await noBot.request('/api/me'))).toMatchObject({
      reason: 'missing',
      bot: false,
    });
    const withTma = await noBot.request('/api/me', { headers: tma(initData()) });
    expect(withTma.status).toBe(401);
    expect(await json(withTma)).toMatchObject({ reason: 'invalid', bot: false });
  });

  it('a sign-in link becomes an HttpOnly SameSite=Strict cookie once; its session is listed and ended', async () => {
    const link = (await h.core.invoke('create_sign_in_link', h.owner, {})).output;
    const signIn = await s.request(
      '/api/session',
      post({ code: link.code }, { 'user-agent': 'Firefox/140' }),
    );
    expect(signIn.status).toBe(200);
    const setCookie = signIn.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^exhale_session=exs_[0-9a-z]{32};/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Path=/');
    expect(setCookie).not.toContain('Secure');
    const cookie = setCookie.split(';')[0] ?? '';

    const again = await s.request('/api/session', post({ code: link.code }, {}));
    expect(again.status).toBe(401);
    expect(await json(again)).toMatchObject({
      reason: 'used',
      message: expect.stringContaining('already used'),
    });

    const me = await s.request('/api/me', { headers: { cookie } });
    expect(me.status).toBe(200);
    const { sessionId, telegram } = await json(me);
    expect(telegram).toBe(false);
    const listed = await s.request(
      '/api/ops/list_web_sessions',
      post({ input: {} }, { cookie, origin: 'http://localhost' }),
    );
    expect((await json(listed)).output.items).toEqual([
      expect.objectContaining({ id: sessionId, user_agent: 'Firefox/140' }),
    ]);

    const out = await s.request('/api/session', {
      method: 'DELETE',
      headers: { cookie, origin: 'http://localhost' },
    });
    expect(out.status).toBe(200);
    const after = await s.request('/api/me', { headers: { cookie } });
    expect(after.status).toBe(401);
    expect(await json(after)).toMatchObject({ reason: 'invalid' });
  });

  it('marks the cookie Secure when the public URL is https, and a code is refused after 10 minutes', async () => {
    const secure = serve(h.core, { publicUrl: 'https://exhale.example.com' });
    const link = (await h.core.invoke('create_sign_in_link', h.owner, {})).output;
    const res = await secure.request('/api/session', post({ code: link.code }, {}));
    expect(res.headers.get('set-cookie')).toContain('Secure');
    const late = (await h.core.invoke('create_sign_in_link', h.owner, {})).output;
    h.clock.now = new Date(TEST_NOW.getTime() + 10 * 60_000);
    const expired = await s.request(
      '/api/session',
      post({ code: late.code }, { 'accept-language': 'es' }),
    );
    expect(expired.status).toBe(401);
    expect(await json(expired)).toMatchObject({
      reason: 'expired',
      message: expect.stringContaining('caducado'),
    });
  });

  it('refuses a cookie’s write from a foreign or missing Origin, and writes nothing', async () => {
    const link = (await h.core.invoke('create_sign_in_link', h.owner, {})).output;
    const signIn = await s.request('/api/session', post({ code: link.code }, {}));
    const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const before = await dumpDatabase(h.db);
    const foreign: Array<Record<string, string>> = [
      { cookie, origin: 'https://evil.example' },
      { cookie },
    ];
    for (const headers of foreign) {
      const res = await s.request(
        '/api/ops/create_tag',
        post({ input: { name: 'csrf' } }, headers),
      );
      expect(res.status).toBe(403);
      expect((await json(res)).error).toBe('forbidden');
    }
    expect(await dumpDatabase(h.db)).toBe(before);
    const own = await s.request(
      '/api/ops/create_tag',
      post({ input: { name: 'mine' } }, { cookie, origin: 'http://localhost' }),
    );
    expect(own.status).toBe(200);
  });
});
