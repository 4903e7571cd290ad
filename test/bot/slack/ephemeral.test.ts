import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { buttonsOf, readable, type SlackUser } from '../../fakes/slackApi.ts';
import { createSlackWorld, newMessage, seedSlackHousehold, type SlackWorld } from './harness.ts';

/**
 * In a channel, `/exhale` answers only the person who typed it (an ephemeral message, through the
 * command's response URL) whenever the answer shows their household's data or a card for them;
 * buttons on such a message still work, through the press's response URL. In the DM answers are
 * ordinary messages.
 */
describe('Slack slash-command answers in a channel', () => {
  let w: SlackWorld;
  const CHANNEL = 'C777';
  const subs = () => w.db.knex('subscriptions').orderBy('name').pluck('name');

  beforeEach(async () => {
    w = await createSlackWorld();
  });
  afterEach(async () => w.close());

  /** A member's household, with this channel linked to it from the channel. */
  async function linkedMember(user: SlackUser, language: 'en' | 'es'): Promise<void> {
    await seedSlackHousehold(w.core, user, language);
    const before = w.slack.messagesIn(CHANNEL).length;
    // Linking is the channel's business: `/exhale link` is answered to everyone.
    const offer = await w.command(user, 'link', CHANNEL);
    expect(offer.user).toBeUndefined();
    expect(w.slack.messagesIn(CHANNEL)).toHaveLength(before + 1);
    await w.press(user, offer, language === 'es' ? 'Vincular' : 'Link');
    await w.slack.until(() => buttonsOf(w.slack.messages.get(offer.ts)).length === 0 || undefined);
  }

  const publicMessages = () => w.slack.messagesIn(CHANNEL).filter((m) => m.user === undefined);

  it('answers `/exhale add` in a channel only to its author, and Undo on that card works through the response URL', async () => {
    const ana = w.slack.user('U1001', 'Ana', 'en-GB');
    await linkedMember(ana, 'en');
    const shared = publicMessages().length;

    const card = await w.command(ana, 'add Netflix 15.99 EUR monthly 5', CHANNEL);
    expect(card.user).toBe('U1001');
    expect(readable(card)).toContain('Added Netflix');
    // It went through the command's response URL, as an ephemeral message, not a channel post.
    expect(w.slack.callsOf('response_url').at(-1)?.params).toMatchObject({
      response_type: 'ephemeral',
      replace_original: false,
    });
    expect(publicMessages()).toHaveLength(shared);
    expect(await subs()).toEqual(['Netflix']);

    const before = w.slack.messagesIn(CHANNEL).length;
    expect((await w.press(ana, card, 'Undo')).status).toBe(200);
    const undone = await newMessage(w.slack, CHANNEL, before - 1, (m) =>
      readable(m).includes('Undone'),
    );
    expect(undone.user).toBe('U1001');
    expect(await subs()).toEqual([]);
    // The pressed card, which chat.update cannot reach, was taken away through its response URL.
    expect(w.slack.deleted.map((m) => m.ts)).toEqual([card.ts]);
    expect(w.slack.callsOf('chat.update')).toHaveLength(1); // the link offer only
    expect(publicMessages()).toHaveLength(shared);
    await w.handle.idle();
    expect(w.logged).toEqual([]);
  });

  it('answers `/exhale list` and `totals` in a channel ephemerally, and the same command in the DM as a message', async () => {
    const ana = w.slack.user('U1001', 'Ana', 'en-GB');
    await linkedMember(ana, 'en');
    await w.command(ana, 'add Netflix 15.99 EUR monthly 5');
    const shared = publicMessages().length;
    const list = await w.command(ana, 'list', CHANNEL);
    expect(list.user).toBe('U1001');
    expect(readable(list)).toContain('Netflix');
    const totals = await w.command(ana, 'totals', CHANNEL);
    expect(totals.user).toBe('U1001');
    expect(readable(totals)).toContain('15.99');
    expect(publicMessages()).toHaveLength(shared);
    const dm = await w.command(ana, 'totals');
    expect(dm.user).toBeUndefined();
    expect(dm.channel).toBe('D1001');
  });

  it('opens a card from an ephemeral list, then confirms the change previewed on it in place, in Spanish', async () => {
    const bea = w.slack.user('U2001', 'Bea', 'es-ES');
    await linkedMember(bea, 'es');
    await w.command(bea, 'add Netflix 15,99 EUR mensual 5');
    const shared = publicMessages().length;
    const list = await w.command(bea, 'list', CHANNEL);
    expect(list.user).toBe('U2001');
    let before = w.slack.messagesIn(CHANNEL).length;
    await w.press(bea, list, 'Netflix');
    const card = await newMessage(w.slack, CHANNEL, before);
    expect(card.user).toBe('U2001');
    expect(readable(card)).toContain('📄 Netflix');
    before = w.slack.messagesIn(CHANNEL).length;
    await w.press(bea, card, 'Cancelarla');
    const preview = await newMessage(w.slack, CHANNEL, before);
    expect(preview.user).toBe('U2001');
    expect(readable(preview)).toContain('¿Cancelar Netflix?');
    const shown = w.slack.messagesIn(CHANNEL).length;
    await w.press(bea, preview, 'Confirmar');
    // The preview itself becomes the result (replace_original through the press's response URL).
    await w.slack.until(
      () =>
        readable(w.slack.messages.get(preview.ts)).includes('Suscripción cancelada') || undefined,
      'the preview replaced',
    );
    expect(w.slack.callsOf('response_url').at(-1)?.params).toMatchObject({
      replace_original: true,
    });
    expect(w.slack.messagesIn(CHANNEL)).toHaveLength(shown);
    expect(await w.db.knex('subscriptions').first()).toMatchObject({ status: 'cancelled' });
    expect(publicMessages()).toHaveLength(shared);
    await w.handle.idle();
    expect(w.logged).toEqual([]);
  });

  it('tells a press on a stale ephemeral button so, only to the presser, in Spanish', async () => {
    const bea = w.slack.user('U2001', 'Bea', 'es-ES');
    await linkedMember(bea, 'es');
    const card = await w.command(bea, 'add Netflix 15,99 EUR mensual 5', CHANNEL);
    const undo = buttonsOf(card).find((b) => b.label.includes('Deshacer'))!;
    const stale = structuredClone(card);
    await w.post(w.slack.pressOn(bea, card, undo.actionId, undo.value));
    await w.slack.until(() => w.slack.deleted.length === 1 || undefined);
    await w.handle.idle();
    const before = w.slack.messagesIn(CHANNEL).length;
    await w.post(w.slack.pressOn(bea, stale, undo.actionId, undo.value));
    const notice = await newMessage(w.slack, CHANNEL, before);
    expect(notice.user).toBe('U2001');
    expect(notice.text).toContain('ya se ha deshecho');
    expect(await w.db.knex('audit_entries').where({ op: 'undo' })).toHaveLength(1);
  });
});
