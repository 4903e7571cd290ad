import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  ChatEngine,
  type Conversation,
  type Reply,
  type SentRef,
} from '../../../../core/chat/index.ts';
import { showSubscriptionCard } from '../../../../core/chat/features/subscriptionCard.ts';
import { Turn } from '../../../../core/chat/turn.ts';
import type { Actor } from '../../../../core/kernel/actor.ts';
import { Core } from '../../../../core/kernel/core.ts';
import type { AnyOp } from '../../../../core/kernel/op.ts';
import { catalog } from '../../../../core/ops/catalog.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';
import { RecordingChannel } from '../recordingChannel.ts';

const text = RecordingChannel.text;
const labels = (reply: Reply): string[] => (reply.buttons ?? []).flat().map((b) => b.label);

/**
 * The subscription card in chat, channel-agnostic (the engine over a recording channel): its
 * lines and buttons, each button's op through the pending-change service (previewed when it moves
 * money or deletes), the database after (the change, its audit entry, Undo restoring it), a
 * double press, a stale button, in English and Spanish.
 */
describe('the subscription card', () => {
  let h: TestHousehold;
  let engine: ChatEngine;
  let channel: RecordingChannel;
  let owner: Conversation;
  let netflix: string;
  beforeEach(async () => {
    h = await createTestHousehold();
    engine = new ChatEngine({ core: h.core });
    channel = new RecordingChannel();
    owner = conversation(h.owner, 'Ana');
    const created = await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
      first_charge_date: '2026-03-05',
    });
    netflix = created.output.id;
  });
  afterEach(async () => h.close());

  function conversation(actor: Actor, name: string): Conversation {
    return {
      who: { channel: 'terminal', externalId: null, displayName: name, actor },
      where: { kind: 'private', chatId: 'c' },
    };
  }
  const say = (message: string, conv: Conversation = owner) =>
    engine.handle(conv, { kind: 'text', text: message }, channel);
  const refOf = (reply: Reply): SentRef => ({
    chatId: 'c',
    messageId: String(channel.messages.indexOf(reply)),
  });
  /** Presses the button labelled `label` on a message the engine sent (by its current state). */
  const tap = (reply: Reply, label: string, conv: Conversation = owner, to = engine) =>
    to.handle(
      conv,
      { kind: 'press', payload: RecordingChannel.payload(reply, label), message: refOf(reply) },
      channel,
    );
  const sub = () => h.db.knex('subscriptions').where({ id: netflix }).first();
  const audit = (op: string) => h.db.knex('audit_entries').where({ op }).orderBy('seq');

  async function openCard(conv: Conversation = owner): Promise<Reply> {
    await say('/list', conv);
    await tap(channel.last(), 'Netflix', conv);
    return channel.last();
  }

  it('shows its lines and one button for each op the catalog offers the member on chat', async () => {
    const ben = await h.addMember('Ben');
    await h.core.invoke('update_subscription', h.owner, {
      id: netflix,
      category: 'Streaming',
      payment_method: 'Visa',
      tags: ['family', 'tv'],
      shares: [
        { member_id: h.ownerId, percent: '60' },
        { member_id: ben.memberId!, percent: '40' },
      ],
    });
    const card = await openCard();
    expect(text(card)).toBe(
      [
        '📄 Netflix',
        '15.99 EUR · every month',
        'Next charge: Thu, 5 Mar 2026',
        'Active',
        'Category: Streaming',
        'Payment method: Visa',
        'Tags: family, tv',
        'Shared: Ana 60% · Ben 40%',
      ].join('\n'),
    );
    expect(labels(card)).toEqual([
      '✏️ Edit',
      '✅ Paid',
      '⏭️ Skip',
      '⏸️ Pause',
      '🚪 Cancel it',
      '🗑️ Delete',
      '🗂️ Category',
      '🏷️ Tags',
      '💳 Payment method',
      '👥 Shares',
      '🔒 Privacy',
    ]);
    // With the Mini App's address known, the card opens it on this subscription.
    const withApp = new ChatEngine({ core: h.core, miniAppUrl: 'https://app.example.test/' });
    await withApp.handle(
      owner,
      {
        kind: 'press',
        payload: RecordingChannel.payload(channel.messages.at(-2)!, 'Netflix'),
        message: null,
      },
      channel,
    );
    expect(channel.last().buttons?.at(-1)).toEqual([
      {
        kind: 'webapp',
        label: '📱 Open in app',
        url: `https://app.example.test/subscriptions/${netflix}`,
      },
    ]);
  });

  it('draws no button for an op the catalog does not offer: none at all for a read-only member', async () => {
    const speaker = (actor: Actor) => ({
      actor,
      locale: 'en' as const,
      newcomer: false,
      memberName: 'Ana',
    });
    const reader = new Turn(
      engine,
      owner,
      channel,
      speaker({ ...h.owner, scope: 'read' }),
      h.clock.now,
    );
    await showSubscriptionCard(reader, netflix, null);
    expect(text(channel.last())).toContain('15.99 EUR · every month');
    expect(channel.last().buttons).toBeUndefined();
    // A catalog that keeps deleting off chat: the card has no Delete.
    const noDelete = catalog.map((op): AnyOp =>
      op.name === 'delete_subscription' ? ({ ...op, exclude: { chat: 'not here' } } as AnyOp) : op,
    );
    const limited = new ChatEngine({
      core: new Core({ db: h.db, catalog: noDelete, clock: () => h.clock.now }),
    });
    await showSubscriptionCard(
      new Turn(limited, owner, channel, speaker(h.owner), h.clock.now),
      netflix,
      null,
    );
    expect(labels(channel.last())).not.toContain('🗑️ Delete');
    expect(labels(channel.last())).toContain('⏸️ Pause');
  });

  it('pauses at once with Undo; Undo resumes it and the audit says both', async () => {
    await tap(await openCard(), 'Pause');
    expect(text(channel.last())).toContain('✅ Paused Netflix');
    expect(await sub()).toMatchObject({ status: 'paused', paused_on: '2026-03-02' });
    expect(await audit('pause_subscription')).toHaveLength(1);
    await tap(channel.last(), 'Undo');
    expect(await sub()).toMatchObject({ status: 'active', paused_on: null });
    const [paused] = await audit('pause_subscription');
    expect(paused.undone_by).not.toBeNull();
    // Paused, its card offers Resume instead of Pause.
    await h.core.invoke('pause_subscription', h.owner, { id: netflix });
    const card = await openCard();
    expect(labels(card)).toContain('▶️ Resume');
    expect(labels(card)).not.toContain('⏸️ Pause');
  });

  it('deletes only after Exhale’s preview is confirmed, once for a double press, and Undo brings it back', async () => {
    await tap(await openCard(), 'Delete');
    const preview = channel.last();
    expect(text(preview)).toBe(
      '⚠️ Delete Netflix?\n🗑 Subscription: Netflix · 15.99 EUR · every month',
    );
    expect(labels(preview)).toEqual(['🗑️ Yes, delete', '✖️ Discard']);
    expect(await sub()).toBeDefined();
    const at = channel.messages.indexOf(preview);
    const stale = structuredClone(preview);
    await tap(preview, 'Yes, delete');
    await engine.handle(
      owner,
      {
        kind: 'press',
        payload: RecordingChannel.payload(stale, 'Yes, delete'),
        message: { chatId: 'c', messageId: String(at) },
      },
      channel,
    );
    expect(channel.notices).toEqual(['That was already done.']);
    expect(await sub()).toBeUndefined();
    expect(await audit('delete_subscription')).toHaveLength(1);
    const done = channel.messages[at]!;
    expect(text(done)).toContain('Deleted');
    await tap(done, 'Undo');
    expect(await sub()).toMatchObject({ name: 'Netflix', amount_minor: 1599 });
  });

  it('discards a preview: nothing changes and the card says so', async () => {
    await tap(await openCard(), 'Cancel it');
    const preview = channel.last();
    const at = channel.messages.indexOf(preview);
    expect(text(preview)).toContain('📝 Cancel Netflix?');
    await tap(preview, 'Discard');
    expect(text(channel.messages[at]!)).toBe('✖️ Discarded: Cancel Netflix\nNothing was changed.');
    expect(await sub()).toMatchObject({ status: 'active' });
    expect(await audit('cancel_subscription')).toEqual([]);
    // In Spanish too: nothing was changed (not "there was nothing to change").
    const luis = conversation(await h.addMember('Luis', 'es'), 'Luis');
    await tap(await openCard(luis), 'Cancelarla', luis);
    const es = channel.messages.indexOf(channel.last());
    await tap(channel.last(), 'Descartar', luis);
    expect(text(channel.messages[es]!)).toBe(
      '✖️ Descartado: Cancelar Netflix\nNo se ha cambiado nada.',
    );
  });

  it('marks the next charge paid with the actual amount of a variable bill, then Undo removes it', async () => {
    await tap(await openCard(), 'Paid');
    const first = channel.last();
    expect(text(first)).toContain('📝 Mark the Netflix charge as paid?');
    await tap(first, 'Another amount');
    expect(text(channel.last())).toBe(
      'How much was the Netflix charge of Thu, 5 Mar 2026? Send the amount, like 15.99 EUR.',
    );
    await say('eighteen');
    expect(text(channel.last())).toBe(
      '⚠️ I couldn\'t read "eighteen" as an amount. Send what the Netflix charge was, like 15.99 EUR.',
    );
    // A date means nothing for a charge already dated: asked again the same way.
    await say('18 from March');
    expect(text(channel.last())).toContain('as an amount. Send what the Netflix charge was');
    // An amount that reads two ways is previewed with how it was read, as /add says it.
    await say('1.200');
    expect(text(channel.last())).toContain('➕ Charge: Netflix · 1200.00 EUR');
    expect(text(channel.last())).toContain(
      'I read the amount as 1200 EUR. If you meant 1.20, press Another amount and send it written 1.20.',
    );
    await tap(channel.last(), 'Another amount');
    await say('18,40');
    const second = channel.last();
    const at = channel.messages.indexOf(second);
    expect(text(second)).toContain('18.40 EUR');
    await tap(second, 'Confirm');
    const charges = () => h.db.knex('charges').where({ subscription_id: netflix });
    expect(await charges()).toMatchObject([
      { due_date: '2026-03-05', status: 'paid', amount_minor: 1840 },
    ]);
    expect(await audit('mark_charge_paid')).toHaveLength(1);
    await tap(channel.messages[at]!, 'Undo');
    expect(await charges()).toEqual([]);
  });

  it('skips a chosen charge when several are open, the next one first', async () => {
    h.clock.now = new Date('2026-04-20T10:00:00.000Z');
    await tap(await openCard(), 'Skip');
    const choose = channel.last();
    expect(text(choose)).toContain('Which Netflix charge do you want to skip?');
    expect(labels(choose)).toEqual([
      'Next: Tue, 5 May 2026 · 15.99 EUR',
      'Sun, 5 Apr 2026 · 15.99 EUR',
      'Thu, 5 Mar 2026 · 15.99 EUR',
    ]);
    await tap(choose, '5 Apr');
    expect(text(channel.last())).toContain('Skipped this charge of Netflix');
    expect(await h.db.knex('charges').where({ subscription_id: netflix })).toMatchObject([
      { due_date: '2026-04-05', status: 'skipped' },
    ]);
    await tap(channel.last(), 'Undo');
    expect(await h.db.knex('charges')).toEqual([]);
  });

  it('refuses a button whose subscription was deleted meanwhile, naming it, and takes the buttons off', async () => {
    const card = await openCard();
    const ref = channel.messages.indexOf(card);
    await h.core.invoke('delete_subscription', h.owner, { id: netflix });
    await tap(card, 'Pause');
    expect(text(channel.last())).toBe(
      '⚠️ Netflix was deleted since this was shown, so nothing was changed.',
    );
    expect(channel.messages[ref]!.buttons).toBeUndefined();
    expect(await audit('pause_subscription')).toEqual([]);
  });

  it('refuses a preview confirmed after its subscription was deleted, by name, changing nothing', async () => {
    await tap(await openCard(), 'Cancel it');
    const preview = channel.last();
    const at = channel.messages.indexOf(preview);
    await h.core.invoke('delete_subscription', h.owner, { id: netflix });
    await tap(preview, 'Confirm');
    expect(text(channel.last())).toContain('Netflix was deleted since it was shown');
    expect(channel.messages[at]!.buttons).toBeUndefined();
    expect(await audit('cancel_subscription')).toEqual([]);
  });

  it('sets the category from its buttons or a typed name, tags and shares by conversation', async () => {
    await h.core.invoke('create_category', h.owner, { name: 'Video' });
    const card = await openCard();
    await tap(card, 'Category');
    expect(text(channel.last())).toContain('Which category is Netflix in?');
    await tap(channel.last(), 'Video');
    expect(text(channel.last())).toContain('Updated Netflix');
    const video = await h.db.knex('categories').where({ name: 'Video' }).first();
    expect((await sub()).category_id).toBe(video.id);
    await tap(card, 'Category');
    await say('Películas');
    const films = await h.db.knex('categories').where({ name: 'Películas' }).first();
    expect((await sub()).category_id).toBe(films.id);
    await tap(card, 'Tags');
    await say('family, tv');
    const tagged = await h.db
      .knex('subscription_tags')
      .join('tags', 'tags.id', 'subscription_tags.tag_id')
      .where({ subscription_id: netflix })
      .orderBy('tags.name')
      .select('tags.name');
    expect(tagged.map((t: { name: string }) => t.name)).toEqual(['family', 'tv']);
    const ben = await h.addMember('Ben');
    await tap(card, 'Shares');
    await say('Ana 70, Zoe 30');
    expect(text(channel.last())).toContain('I couldn\'t read "Ana 70, Zoe 30" as shares');
    await say('Ana 70, Ben 30');
    // Shares move money: previewed first, who pays what percent before and after.
    expect(text(channel.last())).toBe(
      '📝 Change Netflix?\n✏️ Netflix: cost shares — → Ana 70% · Ben 30%',
    );
    await tap(channel.last(), 'Confirm');
    const shares = await h.db
      .knex('subscription_shares')
      .where({ subscription_id: netflix })
      .orderBy('share_bp', 'desc');
    expect(
      shares.map((s: { member_id: string; share_bp: number }) => [s.member_id, s.share_bp]),
    ).toEqual([
      [h.ownerId, 7000],
      [ben.memberId, 3000],
    ]);
    await tap(channel.last(), 'Undo');
    expect(await h.db.knex('subscription_shares').where({ subscription_id: netflix })).toEqual([]);
  });

  it('speaks Spanish to a Spanish member: the card, its buttons and its previews', async () => {
    const luis = await h.addMember('Luis', 'es');
    const conv = conversation(luis, 'Luis');
    await h.core.invoke('update_subscription', h.owner, { id: netflix, private: false });
    const card = await openCard(conv);
    expect(text(card)).toBe(
      '📄 Netflix\n15,99 EUR · cada mes\nPróximo cobro: jue, 5 mar 2026\nActiva',
    );
    expect(labels(card)).toEqual([
      '✏️ Editar',
      '✅ Pagado',
      '⏭️ Saltar',
      '⏸️ Pausar',
      '🚪 Cancelarla',
      '🗑️ Borrar',
      '🗂️ Categoría',
      '🏷️ Etiquetas',
      '💳 Método de pago',
      '👥 Reparto',
    ]);
    // Paid, another amount: asked for what was charged, and how "1.200" was read.
    await tap(card, 'Pagado', conv);
    await tap(channel.last(), 'Otro importe', conv);
    await say('abc', conv);
    expect(text(channel.last())).toBe(
      '⚠️ No he podido leer «abc» como un importe. Envía cuánto fue el cargo de Netflix, como 15,99 EUR.',
    );
    await say('1.200', conv);
    expect(text(channel.last())).toContain(
      'He leído el importe como 1200 EUR. Si querías decir 1,20, pulsa Otro importe y envíalo escrito 1,20.',
    );
    await tap(card, 'Borrar', conv);
    expect(text(channel.last())).toContain('⚠️ ¿Borrar Netflix?');
    await tap(channel.last(), 'Sí, borrar', conv);
    expect(await sub()).toBeUndefined();
    await tap(channel.last(), 'Deshacer', conv);
    expect(await sub()).toMatchObject({ name: 'Netflix' });
  });

  it('refuses a preview whose records another writer changed since, leaving the other change alone', async () => {
    await tap(await openCard(), 'Paid');
    const preview = channel.last();
    const at = channel.messages.indexOf(preview);
    await h.core.invoke('mark_charge_paid', h.owner, {
      subscription_id: netflix,
      due_date: '2026-03-05',
      amount: '20.00',
    });
    await tap(preview, 'Confirm');
    expect(text(channel.last())).toBe(
      '⚠️ The change was not applied: the records it touches have changed since it was shown. Look at it again before applying it.',
    );
    expect(channel.messages[at]!.buttons).toBeUndefined();
    expect(await h.db.knex('charges').where({ subscription_id: netflix })).toMatchObject([
      { status: 'paid', amount_minor: 2000 },
    ]);
    expect(await audit('mark_charge_paid')).toHaveLength(1);
  });

  it('writes nothing when the op fails mid-way, and the same Confirm works afterwards', async () => {
    await tap(await openCard(), 'Delete');
    const preview = channel.last();
    const at = channel.messages.indexOf(preview);
    // A process whose delete fails after writing, inside the transaction (the op's own run,
    // then a throw: the casts only re-wrap the catalog's op in a test double).
    const failing = catalog.map((op): AnyOp =>
      op.name === 'delete_subscription'
        ? ({
            ...op,
            run: async (ctx: never, input: never) => {
              await (op.run as (c: never, i: never) => Promise<unknown>)(ctx, input);
              throw new Error('disk gone');
            },
          } as AnyOp)
        : op,
    );
    const broken = new ChatEngine({
      core: new Core({ db: h.db, catalog: failing, clock: () => h.clock.now }),
      log: () => undefined,
    });
    await tap(preview, 'Yes, delete', owner, broken);
    expect(text(channel.last())).toBe(
      'Sorry, something went wrong on our side. Nothing was changed; please try again.',
    );
    expect(await sub()).toBeDefined();
    expect(await audit('delete_subscription')).toEqual([]);
    await tap(channel.messages[at]!, 'Yes, delete');
    expect(await sub()).toBeUndefined();
    expect(await audit('delete_subscription')).toHaveLength(1);
  });

  it('is reached from /upcoming and from a search, one button per subscription', async () => {
    await say('/upcoming');
    expect(labels(channel.last())).toEqual(['📄 Netflix']);
    await tap(channel.last(), 'Netflix');
    expect(text(channel.last())).toMatch(/^📄 Netflix\n15.99 EUR/);
    await say('/list netf');
    expect(labels(channel.last())).toEqual(['📄 Netflix']);
  });
});
