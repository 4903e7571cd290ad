import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { redeemConnectCode } from '../../../../core/auth/oauth/connectCodes.ts';
import { startAgentNotices } from '../../../../core/channels/index.ts';
import { ChatEngine, type Conversation, type Reply } from '../../../../core/chat/index.ts';
import { memberActor } from '../../../../core/kernel/actor.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';
import { RecordingChannel } from '../recordingChannel.ts';

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
