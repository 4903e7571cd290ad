import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  ChatEngine,
  type Conversation,
  type Reply,
  type SentRef,
} from '../../../../core/chat/index.ts';
import { subscriptionChanges } from '../../../../core/chat/features/subscriptionCard.ts';
import { type Actor, memberActor, newcomerActor } from '../../../../core/kernel/actor.ts';
import { Core } from '../../../../core/kernel/core.ts';
import { catalog } from '../../../../core/ops/catalog.ts';
import { openSharedTestDatabase } from '../../../helpers/sharedDatabase.ts';
import { createTestHousehold, TEST_NOW, type TestHousehold } from '../../../helpers/testCore.ts';
import { RecordingChannel } from '../recordingChannel.ts';

const text = RecordingChannel.text;
const labels = (reply: Reply): string[] => (reply.buttons ?? []).flat().map((b) => b.label);

function conversation(actor: Actor, name: string): Conversation {
  return {
    who: { channel: 'terminal', externalId: null, displayName: name, actor },
    where: { kind: 'private', chatId: 'c' },
  };
}

/**
 * The commands that manage a subscription (/edit, /paid, /skip, /pause, /resume, /cancel,
 * /delete, /redo): a name ignoring case and accents, or a pick list; each change checked in the
 * database with its audit entry and Undo.
 */
describe('the subscription commands', () => {
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
    const add = async (name: string, amount: string) =>
      (
        await h.core.invoke('create_subscription', h.owner, {
          name,
          amount,
          first_charge_date: '2026-03-05',
        })
      ).output.id;
    netflix = await add('Netflix', '15.99');
    await add('Netflix Kids', '5.99');
    await add('Café Club', '12.00');
  });
  afterEach(async () => h.close());

  const say = (message: string, conv: Conversation = owner) =>
    engine.handle(conv, { kind: 'text', text: message }, channel);
  const refOf = (reply: Reply): SentRef => ({
    chatId: 'c',
    messageId: String(channel.messages.indexOf(reply)),
  });
  const tap = (reply: Reply, label: string, conv: Conversation = owner) =>
    engine.handle(
      conv,
      { kind: 'press', payload: RecordingChannel.payload(reply, label), message: refOf(reply) },
      channel,
    );
  const row = (name: string) => h.db.knex('subscriptions').where({ name }).first();
  const audit = (op: string) => h.db.knex('audit_entries').where({ op }).orderBy('seq');

  it('takes a name ignoring case and accents: /pause café club pauses it at once, with Undo', async () => {
    await say('/pause CAFE club');
    expect(text(channel.last())).toContain('✅ Paused Café Club');
    expect(await row('Café Club')).toMatchObject({ status: 'paused' });
    expect(await audit('pause_subscription')).toHaveLength(1);
    await tap(channel.last(), 'Undo');
    expect(await row('Café Club')).toMatchObject({ status: 'active' });
  });

  it('asks which one with a pick list when a name is ambiguous, unknown or absent', async () => {
    await say('/delete netfl');
    expect(text(channel.last())).toBe('Which one do you mean by "netfl"?');
    expect(labels(channel.last())).toEqual(['Netflix', 'Netflix Kids']);
    await tap(channel.last(), 'Netflix Kids');
    expect(text(channel.last())).toContain('⚠️ Delete Netflix Kids?');
    await tap(channel.last(), 'Yes, delete');
    expect(await row('Netflix Kids')).toBeUndefined();
    expect(await row('Netflix')).toBeDefined();

    await say('/pause hulu');
    expect(text(channel.last())).toBe(
      'You have no subscription called "hulu". Which one do you mean?',
    );
    expect(labels(channel.last())).toEqual(['Café Club', 'Netflix']);
    // With no name, /resume lists only what can be resumed.
    await say('/resume');
    expect(text(channel.last())).toBe('You have no paused or cancelled subscription to resume.');
    await say('/pause Netflix');
    await say('/resume');
    expect(text(channel.last())).toBe('Which subscription do you want to resume?');
    expect(labels(channel.last())).toEqual(['Netflix']);
    await tap(channel.last(), 'Netflix');
    expect(await row('Netflix')).toMatchObject({ status: 'active', paused_on: null });
  });

  it('/cancel previews first, then cancels from today; Undo takes it back', async () => {
    await say('/cancel netflix');
    const preview = channel.last();
    expect(text(preview)).toContain('📝 Cancel Netflix?');
    expect(await row('Netflix')).toMatchObject({ status: 'active' });
    await tap(preview, 'Confirm');
    expect(await row('Netflix')).toMatchObject({ status: 'cancelled', cancelled_on: '2026-03-02' });
    expect(await audit('cancel_subscription')).toHaveLength(1);
    await tap(channel.last(), 'Undo');
    expect(await row('Netflix')).toMatchObject({ status: 'active', cancelled_on: null });
  });

  it('/paid and /skip settle the next charge: Paid previewed (it moves money), Skip at once', async () => {
    await say('/paid netflix');
    expect(text(channel.last())).toContain('Mark the Netflix charge as paid?');
    await tap(channel.last(), 'Confirm');
    expect(await h.db.knex('charges').where({ subscription_id: netflix })).toMatchObject([
      { due_date: '2026-03-05', status: 'paid', amount_minor: 1599 },
    ]);
    await say('/skip café club');
    expect(text(channel.last())).toContain('Skipped this charge of Café Club');
    expect(await audit('skip_charge')).toHaveLength(1);
  });

  it('/redo brings back what /undo took back, once', async () => {
    await say('/pause Netflix');
    await say('/undo');
    expect(await row('Netflix')).toMatchObject({ status: 'active' });
    await say('/redo');
    expect(text(channel.last())).toContain('🔁 Redone');
    expect(await row('Netflix')).toMatchObject({ status: 'paused' });
    await say('/redo');
    expect(text(channel.last())).toBe('⚠️ There is nothing to redo: undo something first.');
  });

  it('/edit Netflix price 17.99 from April records a price change from that day, previewed, with Undo', async () => {
    await say('/edit Netflix price 17.99 from April');
    const preview = channel.last();
    expect(text(preview)).toContain('📝 Change Netflix?');
    expect(text(preview)).toContain('amount 15.99 EUR → 17.99 EUR');
    expect(text(preview)).toContain('From Wed, 1 Apr 2026');
    await tap(preview, 'Confirm');
    const changes = () => h.db.knex('price_changes').where({ subscription_id: netflix });
    expect(await changes()).toMatchObject([
      { effective_date: '2026-04-01', old_amount_minor: 1599, new_amount_minor: 1799 },
    ]);
    // The charges before April keep their price: the history is not rewritten.
    const { output } = await h.core.invoke('list_charges', h.owner, {
      from: '2026-03-01',
      to: '2026-04-30',
      subscription_id: netflix,
    });
    expect(output.items.map((c) => [c.due_date, c.amount])).toEqual([
      ['2026-03-05', '15.99'],
      ['2026-04-05', '17.99'],
    ]);
    expect(await audit('update_subscription')).toHaveLength(1);
    await tap(channel.last(), 'Undo');
    expect(await changes()).toEqual([]);
    expect(await row('Netflix')).toMatchObject({ amount_minor: 1599 });
  });

  it('previews a new currency or cycle on lines, and says when there is nothing to change', async () => {
    await say('/edit Netflix price 15.99 USD');
    expect(text(channel.last())).toBe(
      '📝 Change Netflix?\n✏️ Netflix: amount 15.99 EUR → 15.99 USD, currency EUR → USD',
    );
    await say('/edit Netflix price 1.200');
    expect(text(channel.last())).toContain('amount 15.99 EUR → 1200.00 EUR');
    expect(text(channel.last())).toContain(
      'I read the price as 1200 EUR. If you meant 1.20, discard this and send the price written 1.20.',
    );
    await say('/edit Netflix cycle every 2 months');
    expect(text(channel.last())).toBe(
      '📝 Change Netflix?\n✏️ Netflix: cycle every month → every 2 months',
    );
    await say('/edit Netflix cycle quarterly');
    expect(text(channel.last())).toBe(
      '📝 Change Netflix?\n✏️ Netflix: cycle every month → every 3 months',
    );
    await tap(channel.last(), 'Confirm');
    expect(await row('Netflix')).toMatchObject({ cycle_unit: 'month', cycle_every: 3 });
    // The cycle it already has: no card to confirm.
    const before = channel.messages.length;
    await say('/edit Netflix cycle quarterly');
    expect(text(channel.last())).toBe('ℹ️ Nothing to change: Netflix is already like that.');
    expect(channel.last().buttons).toBeUndefined();
    expect(channel.messages.length).toBe(before + 1);
    expect(await audit('update_subscription')).toHaveLength(1);
  });

  it('says the same in Spanish: a new currency and cycle on lines, nothing to change', async () => {
    const luis = await h.addMember('Luis', 'es');
    const conv = conversation(luis, 'Luis');
    await say('/edit Netflix precio 15,99 USD', conv);
    expect(text(channel.last())).toBe(
      '📝 ¿Cambiar Netflix?\n✏️ Netflix: importe 15,99 EUR → 15,99 USD, moneda EUR → USD',
    );
    await say('/edit Netflix ciclo cada 2 meses', conv);
    expect(text(channel.last())).toBe(
      '📝 ¿Cambiar Netflix?\n✏️ Netflix: ciclo cada mes → cada 2 meses',
    );
    await say('/edit Netflix ciclo mensual', conv);
    expect(text(channel.last())).toBe('ℹ️ No hay nada que cambiar: Netflix ya está así.');
    await say('/edit Netflix reparto Ana 60, Luis 40', conv);
    expect(text(channel.last())).toBe(
      '📝 ¿Cambiar Netflix?\n✏️ Netflix: reparto — → Ana 60% · Luis 40%',
    );
  });

  it('understands the field labels its own cards show, and their synonyms, in one line', async () => {
    await say('/edit Netflix billing date 2027-02-10');
    expect(text(channel.last())).toBe(
      '📝 Change Netflix?\n✏️ Netflix: first charge Thu, 5 Mar 2026 → Wed, 10 Feb 2027',
    );
    await say('/edit Netflix next charge 2027-01-20');
    expect(text(channel.last())).toContain('first charge Thu, 5 Mar 2026 → Wed, 20 Jan 2027');
    await say('/edit Netflix free trial 7 days');
    expect(text(channel.last())).toContain('trial ends — → Mon, 9 Mar 2026');
    const luis = conversation(await h.addMember('Luis', 'es'), 'Luis');
    await say('/edit Netflix fecha de cobro 10', luis);
    expect(text(channel.last())).toBe(
      '📝 ¿Cambiar Netflix?\n✏️ Netflix: primer cargo jue, 5 mar 2026 → mar, 10 mar 2026',
    );
    await say('/edit Netflix prueba gratis 7 días', luis);
    expect(text(channel.last())).toContain('fin de la prueba — → lun, 9 mar 2026');
  });

  it('edits by conversation: which field, then the value, asked again with the reason when it does not read', async () => {
    await say('/edit netflix');
    expect(text(channel.last())).toBe('✏️ Edit Netflix\nWhat do you want to change?');
    expect(labels(channel.last())).toEqual([
      'Name',
      'Price',
      'Cycle',
      'Billing date',
      'Free trial',
      'Notes',
      'Category',
      'Payment method',
      'Tags',
      'Shares',
      'Privacy',
    ]);
    await tap(channel.last(), 'Cycle');
    expect(text(channel.last())).toContain('How often is Netflix charged?');
    await say('sometimes');
    expect(text(channel.last())).toContain('⚠️ I couldn\'t read "sometimes" as a cycle.');
    await say('every other month');
    await tap(channel.last(), 'Confirm');
    expect(await row('Netflix')).toMatchObject({ cycle_unit: 'month', cycle_every: 2 });
    // A value the op refuses is told with the op's own reason, and asked again.
    await say(`/edit Netflix name ${'x'.repeat(200)}`);
    expect(text(channel.last())).toMatch(/^⚠️ .*\nWhat should Netflix be called\?$/s);
    await say('Netflix Premium');
    expect(text(channel.last())).toContain('✅ Updated Netflix Premium');
    expect(await row('Netflix Premium')).toBeDefined();
  });

  it('speaks Spanish: /edit in one line and its question and error in the member’s language', async () => {
    const luis = await h.addMember('Luis', 'es');
    const conv = conversation(luis, 'Luis');
    await say('/edit Netflix precio 12,50 desde abril', conv);
    expect(text(channel.last())).toContain('📝 ¿Cambiar Netflix?');
    expect(text(channel.last())).toContain('Desde el mié, 1 abr 2026');
    await say('/edit Netflix fecha', conv);
    expect(text(channel.last())).toContain('¿Qué día se cobra Netflix?');
    await say('cuando sea', conv);
    expect(text(channel.last())).toContain('⚠️ No he podido leer «cuando sea» como una fecha.');
    await say('el próximo viernes', conv);
    await tap(channel.last(), 'Confirmar', conv);
    expect(await row('Netflix')).toMatchObject({ first_charge_date: '2026-03-06' });
    await tap(channel.last(), 'Deshacer', conv);
    expect(await row('Netflix')).toMatchObject({ first_charge_date: '2026-03-05' });
  });
});

describe('a pending card pressed from two processes at once', () => {
  it('is applied once: two Cores on one database, the same Confirm and the same pending change', async () => {
    const shared = await openSharedTestDatabase();
    try {
      const clock = () => new Date(TEST_NOW);
      const a = new Core({ db: shared.open(), catalog, clock });
      const b = new Core({ db: shared.open(), catalog, clock });
      const created = await a.invoke('create_household', newcomerActor('cli', 'en'), {
        name: 'Home',
        currency: 'EUR',
        time_zone: 'Europe/Madrid',
        language: 'en',
        owner_name: 'Ana',
      });
      const { household, member } = created.output as {
        household: { id: string };
        member: { id: string };
      };
      const ana = memberActor(
        { id: member.id, household_id: household.id, role: 'owner', language: 'en' },
        'terminal',
      );
      for (const name of ['Netflix', 'Gym'])
        await a.invoke('create_subscription', ana, { name, amount: '10' });
      const conv = conversation(ana, 'Ana');
      const [ea, eb] = [new ChatEngine({ core: a }), new ChatEngine({ core: b })];
      const [ca, cb] = [new RecordingChannel(), new RecordingChannel()];
      await ea.handle(conv, { kind: 'text', text: '/delete netflix' }, ca);
      const confirm = RecordingChannel.payload(ca.last(), 'Yes, delete');
      const press = { kind: 'press' as const, payload: confirm, message: null };
      await Promise.all([ea.handle(conv, press, ca), eb.handle(conv, press, cb)]);
      const knex = a.db.knex;
      expect(await knex('subscriptions').where({ name: 'Netflix' })).toEqual([]);
      expect(await knex('audit_entries').where({ op: 'delete_subscription' })).toHaveLength(1);
      expect([...ca.notices, ...cb.notices]).toEqual(['That was already done.']);

      // Below the buttons, the pending change itself: two confirms of one change, one applies.
      const gym = (await knex('subscriptions').where({ name: 'Gym' }).first()) as { id: string };
      const { change } = await subscriptionChanges(a).prepare(ana, a.op('delete_subscription'), {
        id: gym.id,
      });
      const results = await Promise.allSettled([
        subscriptionChanges(a).confirm(ana, change.id),
        subscriptionChanges(b).confirm(ana, change.id),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(await knex('audit_entries').where({ op: 'delete_subscription' })).toHaveLength(2);
      expect(await knex('subscriptions')).toEqual([]);
    } finally {
      await shared.close();
    }
  });
});
