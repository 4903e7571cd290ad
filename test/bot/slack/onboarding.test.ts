import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { buttonsOf, readable, signature, slackRequests } from '../../fakes/slackApi.ts';
import { createSlackWorld, newMessage, type SlackWorld } from './harness.ts';

describe('Slack onboarding and joining', () => {
  let w: SlackWorld;
  beforeEach(async () => {
    w = await createSlackWorld();
  });
  afterEach(async () => w.close());

  it('refuses a request with a bad, old or future-dated signature with 401 and processes nothing', async () => {
    const ana = w.slack.user('U1001', 'Ana', 'es-ES');
    const good = slackRequests.command(ana, 'start');
    const forged = { ...good, headers: { ...good.headers, 'x-slack-signature': 'v0=00' } };
    expect((await w.post(forged)).status).toBe(401);
    const old = Math.floor(Date.now() / 1000) - 10 * 60;
    const stale = { ...good, headers: { ...good.headers, ...signature(good.body, old) } };
    expect((await w.post(stale)).status).toBe(401);
    // Signed with the secret but claiming a time ten minutes ahead: refused as well.
    const ahead = Math.floor(Date.now() / 1000) + 10 * 60;
    const future = { ...good, headers: { ...good.headers, ...signature(good.body, ahead) } };
    expect((await w.post(future)).status).toBe(401);
    const unsigned = {
      body: good.body,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    };
    expect((await w.post(unsigned)).status).toBe(401);
    expect(w.slack.calls.filter((c) => c.method !== 'auth.test')).toEqual([]);
    expect(await w.db.knex('households')).toEqual([]);
  });

  it('answers url_verification with its challenge', async () => {
    const body = JSON.stringify({ type: 'url_verification', challenge: 'abc123', token: 'x' });
    const response = await w.post({
      body,
      headers: { 'content-type': 'application/json', ...signature(body) },
    });
    expect(await response.json()).toEqual({ challenge: 'abc123' });
  });

  it('creates a household from `/exhale start` with Block Kit buttons, in Spanish from the Slack locale', async () => {
    const ana = w.slack.user('U1001', 'Ana', 'es-ES');
    const ack = await w.post(slackRequests.command(ana, 'start'));
    expect(ack.status).toBe(200);
    const welcome = await newMessage(w.slack, 'D1001', 0);
    expect(readable(welcome)).toContain('¿En qué moneda pagas?');
    const eur = buttonsOf(welcome).find((b) => b.label === 'EUR');
    expect(eur?.actionId).toBe(`exhale:${eur?.value}`);
    await w.post(slackRequests.press(ana, welcome, eur!.actionId, eur!.value));
    const asked = await w.slack.until(
      () =>
        readable(w.slack.messages.get(welcome.ts)).includes('¿En qué zona horaria estás?') &&
        w.slack.messages.get(welcome.ts),
      'the time zone question',
    );
    const madrid = buttonsOf(asked).find((b) => b.label === 'Europe/Madrid');
    await w.post(slackRequests.press(ana, asked, madrid!.actionId, madrid!.value));
    await w.slack.until(
      () => readable(w.slack.messages.get(welcome.ts)).includes('Tu hogar está listo'),
      'the household ready',
    );
    expect(await w.db.knex('households').first()).toMatchObject({
      name: 'Casa de Ana',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      locale: 'es',
    });
    const member = await w.db.knex('members').first();
    expect(member).toMatchObject({ name: 'Ana', role: 'owner', language: 'es' });
    expect(
      await w.db.knex('member_identities').select('member_id', 'platform', 'external_id'),
    ).toEqual([{ member_id: member.id, platform: 'slack', external_id: 'T0001:U1001' }]);
    expect(w.slack.callsOf('users.info')[0]?.params).toMatchObject({
      user: 'U1001',
      include_locale: 'true',
    });
    expect(w.logged).toEqual([]);
  });

  it('joins a household by an invite code with `/exhale start <code>`, the invite written as a Slack command', async () => {
    const ana = w.slack.user('U1001', 'Ana', 'en-US');
    await w.post(slackRequests.command(ana, 'start'));
    const welcome = await newMessage(w.slack, 'D1001', 0);
    const eur = buttonsOf(welcome).find((b) => b.label === 'EUR')!;
    await w.post(slackRequests.press(ana, welcome, eur.actionId, eur.value));
    const zones = await w.slack.until(() =>
      buttonsOf(w.slack.messages.get(welcome.ts)).find((b) => b.label === 'Europe/Madrid'),
    );
    await w.post(
      slackRequests.press(ana, w.slack.messages.get(welcome.ts)!, zones.actionId, zones.value),
    );
    await w.slack.until(() =>
      readable(w.slack.messages.get(welcome.ts)).includes('Your household is ready'),
    );

    const before = w.slack.messagesIn('D1001').length;
    await w.post(slackRequests.command(ana, 'invite'));
    const invite = await newMessage(w.slack, 'D1001', before);
    const code = /\/exhale start ([A-Za-z0-9_-]+)/.exec(readable(invite))?.[1];
    expect(code).toBeDefined();

    const bob = w.slack.user('U1002', 'Bob', 'es-ES');
    await w.post(slackRequests.command(bob, `start ${code}`));
    const joined = await newMessage(w.slack, 'D1002', 0);
    expect(readable(joined)).toContain("Te has unido a Ana's home");
    const rows = await w.db
      .knex('member_identities')
      .orderBy('external_id')
      .select('platform', 'external_id');
    expect(rows).toEqual([
      { platform: 'slack', external_id: 'T0001:U1001' },
      { platform: 'slack', external_id: 'T0001:U1002' },
    ]);
    const bobMember = await w.db.knex('members').where({ name: 'Bob' }).first();
    expect(bobMember).toMatchObject({ role: 'member', language: 'es' });
  });
});
