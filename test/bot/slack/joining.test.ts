import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { buttonsOf, readable, slackRequests } from '../../fakes/slackApi.ts';
import { createSlackWorld, newMessage, type SlackWorld } from './harness.ts';

describe('Slack: the app added to a channel, and a person with no household there', () => {
  let w: SlackWorld;
  beforeEach(async () => {
    w = await createSlackWorld();
  });
  afterEach(async () => w.close());

  it('posts one short message when added to a channel, in the language of who added it', async () => {
    const ana = w.slack.user('U1001', 'Ana', 'es-ES');
    const added = slackRequests.joined('C900', ana);
    expect((await w.post(added)).status).toBe(200);
    const hello = await newMessage(w.slack, 'C900', 0);
    expect(hello.user).toBeUndefined();
    expect(readable(hello)).toContain('Hola, soy Exhale');
    // How each person links: an invite code someone makes with `/exhale invite` (never another
    // platform named here), or a new household.
    expect(readable(hello)).toContain('/exhale start &lt;código&gt;');
    expect(readable(hello)).toContain('enviándome `/exhale invite` por mensaje directo');
    expect(readable(hello)).not.toContain('Telegram');
    expect(readable(hello)).toContain('`/exhale start` para crear un hogar');
    // Slack re-delivering the same event, and a person (not the app) joining: nothing more.
    await w.post(added);
    await w.post(slackRequests.joined('C900', ana, 'U1002'));
    await w.handle.idle();
    expect(w.slack.messagesIn('C900')).toHaveLength(1);
    expect(w.logged).toEqual([]);
  });

  it('says in English too where an invite code comes from: `/exhale invite`, not another platform', async () => {
    const ana = w.slack.user('U1001', 'Ana', 'en-US');
    await w.post(slackRequests.joined('C901', ana));
    const hello = readable(await newMessage(w.slack, 'C901', 0));
    expect(hello).toContain('they get one by sending me `/exhale invite` in a DM');
    expect(hello).not.toContain('Telegram');
    await w.post(slackRequests.mention(w.slack.user('U1003', 'Cy', 'en-US'), 'C901', 'list'));
    const offer = readable(await newMessage(w.slack, 'C901', 1));
    expect(offer).toContain('`/exhale invite`');
    expect(offer).not.toContain('Telegram');
  });

  it('offers an unlinked person who mentions it the onboarding, only to them, in Spanish', async () => {
    const bob = w.slack.user('U1002', 'Bob', 'es-ES');
    await w.post(slackRequests.mention(bob, 'C900', 'list'));
    const offer = await newMessage(w.slack, 'C900', 0);
    expect(offer.user).toBe('U1002');
    expect(readable(offer)).toContain('Tu cuenta de Slack aún no está vinculada');
    expect(readable(offer)).toContain('/exhale start &lt;código&gt;');
    expect(readable(offer)).toContain('`/exhale invite`');
    expect(readable(offer)).not.toContain('Telegram');
    expect(w.slack.callsOf('chat.postEphemeral').at(-1)?.params).toMatchObject({
      channel: 'C900',
      user: 'U1002',
    });
    // A button opens the app's DM, where `/exhale start` works.
    expect(buttonsOf(offer)).toEqual([
      expect.objectContaining({
        label: 'Abrir mi chat',
        url: 'https://slack.com/app_redirect?app=A0001&team=T0001',
      }),
    ]);
    await w.handle.idle();
    expect(w.slack.callsOf('chat.postMessage')).toEqual([]);
    expect(await w.db.knex('households')).toEqual([]);
    expect(w.logged).toEqual([]);
  });

  it('answers an unlinked person’s `/exhale` in a channel with the same offer, ephemerally', async () => {
    const bob = w.slack.user('U1002', 'Bob', 'es-ES');
    const answer = await w.command(bob, 'totals', 'C900');
    expect(answer.user).toBe('U1002');
    expect(readable(answer)).toContain('Tu cuenta de Slack aún no está vinculada');
    expect(w.slack.callsOf('chat.postMessage')).toEqual([]);
    // In the DM, the same person is walked through creating a household.
    const dm = await w.command(bob, 'start');
    expect(readable(dm)).toContain('¿En qué moneda pagas?');
  });
});
