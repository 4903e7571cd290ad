import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Actor } from '../../../core/kernel/actor.ts';
import { buttonsOf, readable, slackRequests, type SlackUser } from '../../fakes/slackApi.ts';
import { createSlackWorld, newMessage, seedSlackHousehold, type SlackWorld } from './harness.ts';

describe('Slack commands, cards and buttons', () => {
  let w: SlackWorld;
  let ana: SlackUser;
  let actor: Actor;
  const subs = () =>
    w.db.knex('subscriptions').orderBy('name').select('name', 'amount_minor', 'first_charge_date');

  beforeEach(async () => {
    w = await createSlackWorld();
    ana = w.slack.user('U1001', 'Ana', 'en-GB');
    actor = (await seedSlackHousehold(w.core, ana)).actor;
  });
  afterEach(async () => w.close());

  it('signs in to the web with `/exhale web`: a whole link to this server, and a name typed with & or a link is saved as typed', async () => {
    const link = await w.command(ana, 'web');
    expect(readable(link)).toMatch(/https:\/\/exhale\.example\.com\/app\/signin\?code=\w+/);
    // Slack escapes & and turns a typed "Netflix.com" into a link: the name is what Ana typed.
    await w.command(ana, 'add AT&amp;T 30 EUR monthly 3');
    await w.command(ana, 'add <http://Netflix.com|Netflix.com> 15.99 EUR monthly 5');
    expect((await subs()).map((s) => s.name)).toEqual(['AT&T', 'Netflix.com']);
  });

  it('acknowledges a slash command at once and does the work after the ack', async () => {
    const release = w.slack.hold('chat.postMessage');
    const ack = await w.post(slackRequests.command(ana, 'add Netflix 15.99 EUR monthly 5'));
    expect(ack.status).toBe(200);
    expect(w.slack.messagesIn('D1001')).toEqual([]);
    release();
    const card = await newMessage(w.slack, 'D1001', 0);
    expect(readable(card)).toContain('Added Netflix');
  });

  it('adds with `/exhale add Netflix 15.99 EUR monthly 5` as a Block Kit card, then Undo restores the database once', async () => {
    const card = await w.command(ana, 'add Netflix 15.99 EUR monthly 5');
    expect(card.blocks?.[0]).toEqual({
      type: 'section',
      text: {
        type: 'mrkdwn',
        text: '*✅ Added Netflix*\n15.99 EUR · every month\nNext charge: Thu, 5 Mar 2026',
      },
    });
    expect(card.text).toContain('Added Netflix');
    const buttons = buttonsOf(card);
    const undo = buttons.find((b) => b.label.includes('Undo'))!;
    expect(undo.actionId).toBe(`exhale:${undo.value}`);
    expect(await subs()).toEqual([
      { name: 'Netflix', amount_minor: 1599, first_charge_date: '2026-03-05' },
    ]);
    const audit = await w.db.knex('audit_entries').where({ op: 'create_subscription' }).first();
    expect(audit).toMatchObject({ member_id: actor.memberId });

    const stale = structuredClone(card);
    const before = w.slack.messagesIn('D1001').length;
    await w.press(ana, card, 'Undo');
    const undone = await newMessage(w.slack, 'D1001', before, (m) => m.user === undefined);
    expect(readable(undone)).toContain('Undone');
    expect(await subs()).toEqual([]);
    // The card's buttons are gone (chat.update without the actions block).
    await w.slack.until(() => buttonsOf(w.slack.messages.get(card.ts)).length === 0 || undefined);
    expect(readable(w.slack.messages.get(card.ts))).toContain('Added Netflix');

    // Pressed again from the old card: an ephemeral notice, nothing applied twice.
    const messages = w.slack.messagesIn('D1001').length;
    await w.post(slackRequests.press(ana, stale, undo.actionId, undo.value));
    const notice = await w.slack.until(() =>
      w.slack
        .messagesIn('D1001')
        .slice(messages)
        .find((m) => m.user === 'U1001'),
    );
    expect(notice.text).toBe('"Added Netflix" has already been undone.');
    expect(w.slack.callsOf('chat.postEphemeral').at(-1)?.params).toMatchObject({
      user: 'U1001',
      channel: 'D1001',
    });
    await w.handle.idle();
    expect(
      w.slack
        .messagesIn('D1001')
        .slice(messages)
        .filter((m) => m.user === undefined),
    ).toEqual([]);
    expect(await w.db.knex('audit_entries').where({ op: 'undo' })).toHaveLength(1);
  });

  it('applies a button pressed twice at the same moment once', async () => {
    const card = await w.command(ana, 'add Netflix 15.99 EUR monthly 5');
    const undo = buttonsOf(card).find((b) => b.label.includes('Undo'))!;
    const press = slackRequests.press(ana, card, undo.actionId, undo.value);
    await Promise.all([w.post(press), w.post({ ...press })]);
    await w.handle.idle();
    expect(await w.db.knex('audit_entries').where({ op: 'undo' })).toHaveLength(1);
    expect(await subs()).toEqual([]);
    // One press undid it; the other was told so (a notice when the first had finished, or the
    // refusal of an undo whose record changed meanwhile), never a second "Undone".
    const said = w.slack.calls
      .filter((c) => c.method === 'chat.postMessage' || c.method === 'chat.postEphemeral')
      .map((c) => String(c.params.text));
    expect(said.filter((t) => t.startsWith('↩️ Undone'))).toHaveLength(1);
    expect(
      said.filter((t) => t.includes('already been undone') || t.includes("can't be undone")),
    ).toHaveLength(1);
    expect(w.logged).toEqual([]);
  });

  it('refuses a button it does not know with an ephemeral notice', async () => {
    const card = await w.command(ana, 'add Netflix 15.99 EUR monthly 5');
    const before = w.slack.messagesIn('D1001').length;
    await w.post(slackRequests.press(ana, card, 'exhale:nonsense', 'nonsense'));
    const notice = await newMessage(w.slack, 'D1001', before);
    expect(notice.user).toBe('U1001');
    expect(notice.text).toMatch(/button/i);
    expect(await subs()).toHaveLength(1);
  });

  it('answers /exhale totals and list in Spanish for a Spanish member, with Slack-style commands in the help', async () => {
    const bea = w.slack.user('U2001', 'Bea', 'es-ES');
    await seedSlackHousehold(w.core, bea, 'es');
    await w.command(bea, 'add Netflix 15,99 EUR mensual 5');
    const totals = await w.command(bea, 'totals');
    expect(readable(totals)).toMatch(/15,99/);
    const help = await w.command(bea, '');
    expect(readable(help)).toContain('/exhale add');
    expect(readable(help)).not.toMatch(/(^|\s)\/add/);
  });

  it('sends `/exhale export` as the JSON and CSV files, uploaded into the conversation after their message', async () => {
    await w.command(ana, 'add Netflix 15.99 EUR monthly 5');
    const card = await w.command(ana, 'export');
    expect(readable(card)).toContain('export');
    await w.slack.until(() => (w.slack.uploaded.length >= 2 ? true : undefined));
    const [json, csv] = w.slack.uploaded;
    expect(json?.name).toMatch(/^exhale-.*\.json$/);
    expect(csv?.name).toMatch(/\.csv$/);
    expect(w.slack.uploaded.every((f) => f.channel === 'D1001')).toBe(true);
    const document = JSON.parse(Buffer.from(json?.bytes ?? new Uint8Array()).toString()) as {
      subscriptions: Array<{ name: string }>;
    };
    expect(document.subscriptions.map((s) => s.name)).toEqual(['Netflix']);
    expect(Buffer.from(csv?.bytes ?? new Uint8Array()).toString()).toContain('Netflix');
  });

  it('does not reveal a private subscription when mentioned in a channel (a shared audience)', async () => {
    await w.core.invoke('create_subscription', actor, { name: 'Netflix', amount: '15.99' });
    await w.core.invoke('create_subscription', actor, {
      name: 'Secret',
      amount: '5',
      private: true,
    });
    // The channel is linked first, from the channel itself.
    await w.post(slackRequests.mention(ana, 'C777', 'link'));
    const offer = await newMessage(w.slack, 'C777', 0);
    expect(readable(offer)).toContain("Link this channel to Ana's home?");
    await w.press(ana, offer, 'Link');
    await w.slack.until(
      () => readable(w.slack.messages.get(offer.ts)).includes('now linked') || undefined,
    );
    const before = w.slack.messagesIn('C777').length;
    await w.post(slackRequests.mention(ana, 'C777', 'list'));
    const list = await newMessage(w.slack, 'C777', before);
    expect(readable(list)).toContain('Netflix');
    expect(readable(list)).not.toContain('Secret');
    // In her DM she sees both.
    const mine = await w.command(ana, 'list');
    expect(readable(mine)).toContain('Secret');
  });
});
