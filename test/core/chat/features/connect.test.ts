import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { redeemConnectCode } from '../../../../core/auth/oauth/connectCodes.ts';
import { issueAuthorizationCode } from '../../../../core/auth/oauth/tokens.ts';
import { startAgentNotices } from '../../../../core/channels/index.ts';
import { ChatEngine, type Conversation, type Reply } from '../../../../core/chat/index.ts';
import { type Actor, memberActor, newcomerActor } from '../../../../core/kernel/actor.ts';
import type { Core } from '../../../../core/kernel/core.ts';
import { type AppCore, processCores } from '../../../helpers/processCores.ts';
import {
  openSharedTestDatabase,
  type SharedTestDatabase,
} from '../../../helpers/sharedDatabase.ts';
import {
  createTestHousehold,
  TEST_DIALECT,
  type TestHousehold,
} from '../../../helpers/testCore.ts';
import { RecordingChannel } from '../recordingChannel.ts';
import { ChatDriver } from './chatDriver.ts';

const text = RecordingChannel.text;

describe('/connect and connected apps in chat', () => {
  let h: TestHousehold;
  let engine: ChatEngine;
  let channel: RecordingChannel;
  let owner: Conversation;
  beforeEach(async () => {
    h = await createTestHousehold();
    engine = new ChatEngine({ core: h.core });
    channel = new RecordingChannel();
    owner = {
      who: { channel: 'terminal', externalId: null, displayName: 'Ana', actor: h.owner },
      where: { kind: 'private', chatId: 'c' },
    };
  });
  afterEach(async () => h.close());

  it('gives a connect code of 8 characters that stands for the member once, for 10 minutes', async () => {
    await engine.handle(owner, { kind: 'text', text: '/connect' }, channel);
    const reply = channel.last();
    expect(text(reply)).toContain('Connect code');
    const code = reply.card?.code ?? '';
    expect(code).toMatch(/^[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(JSON.stringify(await h.db.knex('one_time_codes'))).not.toContain(
      code.replace('-', '').toLowerCase(),
    );
    const actor = await redeemConnectCode(h.db, code, h.clock.now);
    expect(actor).toMatchObject({ memberId: h.ownerId, channel: 'web', kind: 'member' });
    expect(await redeemConnectCode(h.db, code, h.clock.now)).toBeNull();
    await engine.handle(owner, { kind: 'text', text: '/connect' }, channel);
    const late = channel.last().card?.code ?? '';
    h.clock.now = new Date(h.clock.now.getTime() + 10 * 60_000 + 1);
    expect(await redeemConnectCode(h.db, late, h.clock.now)).toBeNull();
  });

  it('tells the member an app was connected, in their language, and Disconnect ends it', async () => {
    const delivered: Array<{ memberId: string; reply: Reply }> = [];
    let arrived: () => void = () => {};
    const notice = new Promise<void>((resolve) => (arrived = resolve));
    const stop = startAgentNotices(
      h.core,
      {
        reaches: async () => true,
        deliver: async (memberId, reply) => {
          delivered.push({ memberId, reply });
          arrived();
          return 'terminal';
        },
      },
      () => {},
    );
    const web = memberActor(
      { id: h.ownerId, household_id: h.householdId, role: 'owner', language: 'en' },
      'web',
    );
    await h.core.invoke(
      'connect_app',
      web,
      { client: 'exhale_x', client_name: 'Claude.ai', scope: 'write', resource: 'http://x/mcp' },
      { surface: 'web' },
    );
    await notice;
    stop();
    expect(delivered).toHaveLength(1);
    const reply = delivered[0]?.reply as Reply;
    expect(delivered[0]?.memberId).toBe(h.ownerId);
    expect(text(reply)).toContain('Claude.ai can now read and change your subscriptions.');
    const press = RecordingChannel.payload(reply, 'Disconnect');
    await engine.handle(owner, { kind: 'press', payload: press, message: null }, channel);
    expect(text(channel.last())).toContain('Disconnect an app');
    const grant = (await h.db.knex('oauth_grants').first('revoked_at')) as {
      revoked_at: string | null;
    };
    expect(grant.revoked_at).not.toBeNull();
  });
});

/**
 * An app connected as `member` through the consent page: its grant, with the authorization code
 * the app has not redeemed yet (a grant is listed while it has a live token or code).
 */
async function connectApp(
  core: Core,
  member: Actor,
  clientName: string,
  scope: 'read' | 'write' | 'trusted',
): Promise<string> {
  const { output } = await core.invoke(
    'connect_app',
    { ...member, channel: 'consent' },
    { client: `client_${clientName}`, client_name: clientName, scope, resource: 'http://x/mcp' },
    { surface: 'web' },
  );
  const grant = (output as { id: string }).id;
  const request = {
    grantId: grant,
    clientId: `client_${clientName}`,
    redirectUri: '',
    sentTo: '',
    codeChallenge: 'x',
    resource: 'http://x/mcp',
    scope,
  };
  await issueAuthorizationCode(core.db, request, core.clock());
  return grant;
}

const grantsLive = async (core: Core): Promise<string[]> =>
  (await core.db
    .knex('oauth_grants')
    .whereNull('revoked_at')
    .orderBy('client_name')
    .pluck('client_name')) as string[];

describe(`/apps: connected apps in chat (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('lists the apps with their access, when connected and last used, and disconnects one after a preview, with Undo', async () => {
    const claude = await connectApp(h.core, h.owner, 'Claude.ai', 'write');
    await connectApp(h.core, h.owner, 'ChatGPT', 'read');
    await h.db
      .knex('oauth_grant_uses')
      .insert({ grant_id: claude, last_used_at: '2026-03-05T08:00:00.000Z' });
    const chat = new ChatDriver(h.core, h.owner);
    const list = text(await chat.say('/apps'));
    expect(list).toContain('Connected apps (2)');
    expect(list).toContain(
      '• Claude.ai · Read and change · connected Mon, 2 Mar 2026 · last used Thu, 5 Mar 2026',
    );
    expect(list).toContain('• ChatGPT · Read only · connected Mon, 2 Mar 2026 · not used yet');
    // The owner's own apps: no member named.
    expect(list).not.toContain('· Ana');

    const preview = text(await chat.press('Disconnect Claude.ai'));
    expect(preview).toContain('Disconnect Claude.ai?');
    expect(await grantsLive(h.core)).toEqual(['ChatGPT', 'Claude.ai']);
    await chat.press('Confirm');
    expect(await grantsLive(h.core)).toEqual(['ChatGPT']);
    expect(text(await chat.say('/apps'))).not.toContain('Claude.ai');
    await chat.press('Undo');
    expect(await grantsLive(h.core)).toEqual(['ChatGPT', 'Claude.ai']);
    expect(chat.logged).toEqual([]);
  });

  it('en español: un miembro ve solo sus aplicaciones; la propietaria, las de todos con su nombre', async () => {
    const luis = await h.addMember('Luis', 'es');
    await connectApp(h.core, luis, 'Claude.ai', 'trusted');
    await connectApp(h.core, h.owner, 'ChatGPT', 'read');
    const his = text(await new ChatDriver(h.core, luis, { name: 'Luis' }).say('/apps'));
    expect(his).toContain('Aplicaciones conectadas (1)');
    expect(his).toContain(
      '• Claude.ai · De confianza · conectada el lun, 2 mar 2026 · sin usar todavía',
    );
    expect(his).not.toContain('ChatGPT');
    const all = text(await new ChatDriver(h.core, h.owner).say('/apps'));
    expect(all).toContain(
      '• Claude.ai · Trusted · connected Mon, 2 Mar 2026 · not used yet · Luis',
    );
    expect(all).toContain('• ChatGPT · Read only · connected Mon, 2 Mar 2026 · not used yet · Ana');
  });

  it('names the consent page, not the Mini App, as where an app was connected, in each reader’s language', async () => {
    const luis = await h.addMember('Luis', 'es');
    await connectApp(h.core, h.owner, 'Claude.ai', 'write');
    const ana = text(await new ChatDriver(h.core, h.owner).say('/activity'));
    expect(ana).toContain('Connected Claude.ai (can change)\n    Ana · consent page ·');
    const his = text(await new ChatDriver(h.core, luis, { name: 'Luis' }).say('/activity'));
    expect(his).toContain('Ana · página de consentimiento ·');
    expect(`${ana}${his}`).not.toContain('Mini App');
  });

  it('says there is none, and where agent tokens are', async () => {
    const chat = new ChatDriver(h.core, h.owner);
    expect(text(await chat.say('/apps'))).toContain('No connected apps. /connect gives a code');
  });
});

describe(`/apps across processes (${TEST_DIALECT})`, () => {
  let shared: SharedTestDatabase;
  const cores = processCores(() => shared);
  let owner: Actor;

  beforeEach(async () => {
    shared = await openSharedTestDatabase();
  });
  afterEach(async () => {
    await cores.close();
    await shared.close();
  });

  const household = async (core: AppCore): Promise<void> => {
    const created = await core.invoke('create_household', newcomerActor('terminal', 'en'), {
      name: 'Home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      owner_name: 'Ana',
    });
    owner = memberActor(
      { ...created.output.member, household_id: created.output.household.id },
      'terminal',
    );
  };

  it('confirms in another process (the one that previewed is gone) a disconnection previewed in one, once', async () => {
    const a = await cores.open();
    const b = await cores.open();
    await household(a.core);
    await connectApp(a.core, owner, 'Claude.ai', 'write');
    const first = new ChatDriver(a.core, owner);
    await first.say('/apps');
    await first.press('Disconnect Claude.ai');
    // Process A stops here; B takes the press of the preview's Confirm from the database.
    const second = first.on(b.core);
    const confirm = second.payload('Confirm');
    await second.pressPayload(confirm.payload, confirm.index);
    expect(await grantsLive(b.core)).toEqual([]);
    const entries = () => b.core.db.knex('audit_entries').where({ op: 'disconnect_app' });
    expect(await entries()).toHaveLength(1);
    // The same Confirm pressed again (a stale copy of the message) applies nothing more.
    await second.pressPayload(confirm.payload, confirm.index);
    expect(await entries()).toHaveLength(1);
  });

  it('applies nothing when another process disconnected the app after the preview, and says so', async () => {
    const a = await cores.open();
    const b = await cores.open();
    await household(a.core);
    const grant = await connectApp(a.core, owner, 'Claude.ai', 'write');
    const chat = new ChatDriver(a.core, owner);
    await chat.say('/apps');
    await chat.press('Disconnect Claude.ai');
    // The other process (the "app connected" message's Disconnect, or an agent) gets there first.
    await b.core.invoke('disconnect_app', owner, { id: grant });
    const answer = text(await chat.press('Confirm'));
    expect(answer).toMatch(/changed|cambi/i);
    expect(await a.core.db.knex('audit_entries').where({ op: 'disconnect_app' })).toHaveLength(1);
    expect(chat.logged).toEqual([]);
  });
});
