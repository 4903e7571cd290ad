import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ChatEngine, type Conversation } from '../../../../core/chat/index.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';
import { json, post, serve } from '../../../miniapp/server/harness.ts';
import { RecordingChannel } from '../recordingChannel.ts';

describe('/web: a sign-in link for the web app', () => {
  let h: TestHousehold;
  let channel: RecordingChannel;
  let owner: Conversation;
  beforeEach(async () => {
    h = await createTestHousehold();
    channel = new RecordingChannel();
    owner = {
      who: { channel: 'terminal', externalId: null, displayName: 'Ana', actor: h.owner },
      where: { kind: 'private', chatId: 'c' },
    };
  });
  afterEach(async () => h.close());

  it('shows a one-time link to this server that signs the member in once', async () => {
    const engine = new ChatEngine({ core: h.core, webUrl: 'http://localhost:8080/' });
    await engine.handle(owner, { kind: 'text', text: '/web' }, channel);
    const reply = channel.last();
    expect(reply.card?.title).toBe('🌐 Sign in to Exhale on the web');
    expect(reply.card?.lines).toContain('This link works once, for 10 minutes.');
    const link = reply.card?.code ?? '';
    expect(link).toMatch(/^http:\/\/localhost:8080\/app\/signin\?code=[0-9a-z]{24}$/);
    // Not https: no button a platform would refuse, the link is written out to copy.
    expect(reply.buttons ?? []).toEqual([]);

    const code = new URL(link).searchParams.get('code');
    const api = serve(h.core);
    const first = await api.request('/api/session', post({ code }, {}));
    expect(first.status).toBe(200);
    const second = await api.request('/api/session', post({ code }, {}));
    expect(await json(second)).toMatchObject({ reason: 'used' });
  });

  it('over https the link is a button too, in the member’s language; groups get no link', async () => {
    const luis = await h.addMember('Luis', 'es');
    const engine = new ChatEngine({ core: h.core, webUrl: 'https://exhale.example.com' });
    const conv: Conversation = {
      who: { channel: 'terminal', externalId: null, displayName: 'Luis', actor: luis },
      where: { kind: 'private', chatId: 'c' },
    };
    await engine.handle(conv, { kind: 'text', text: '/web' }, channel);
    const reply = channel.last();
    expect(reply.card?.title).toBe('🌐 Entra en Exhale desde la web');
    expect(reply.buttons?.flat()).toEqual([
      { kind: 'url', label: '🌐 Abrir en el navegador', url: reply.card?.code },
    ]);
    const before = await h.db.knex('one_time_codes').count({ n: '*' });
    await engine.handle(
      { ...owner, where: { kind: 'group', chatId: 'g' } },
      { kind: 'text', text: '/web' },
      channel,
    );
    expect(RecordingChannel.text(channel.last())).not.toContain('/app/signin');
    expect(await h.db.knex('one_time_codes').count({ n: '*' })).toEqual(before);
  });
});
