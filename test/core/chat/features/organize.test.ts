import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Core } from '../../../../core/kernel/core.ts';
import type { AnyOp } from '../../../../core/kernel/op.ts';
import { Core as CoreClass } from '../../../../core/kernel/core.ts';
import { catalog } from '../../../../core/ops/catalog.ts';
import {
  createTestHousehold,
  TEST_DIALECT,
  type TestHousehold,
} from '../../../helpers/testCore.ts';
import { twoProcesses } from '../../pending/helpers.ts';
import { ChatDriver } from './chatDriver.ts';

const text = ChatDriver.text;

async function sub(core: Core, actor: TestHousehold['owner'], name: string, extra = {}) {
  const { output } = await core.invoke('create_subscription', actor, {
    name,
    amount: '9.99',
    currency: 'EUR',
    cycle: { unit: 'month', every: 1 },
    first_charge_date: '2026-03-10',
    ...extra,
  });
  return (output as { id: string }).id;
}

async function category(core: Core, actor: TestHousehold['owner'], name: string) {
  const { output } = await core.invoke('create_category', actor, { name });
  return (output as { id: string }).id;
}

const auditOf = async (h: TestHousehold, op: string) => h.db.knex('audit_entries').where({ op });

describe(`organizing from chat, with no model (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  const spanish = async () => {
    await h.core.invoke('update_member', h.owner, { id: h.ownerId, language: 'es' });
  };

  it('creates and renames a category from a typed line, each with Undo that takes it back', async () => {
    const chat = new ChatDriver(h.core, h.owner);
    const created = await chat.say('/categories new Streaming');
    expect(text(created)).toContain('Created the category Streaming');
    expect(await h.db.knex('categories').select('name')).toEqual([{ name: 'Streaming' }]);
    expect(await auditOf(h, 'create_category')).toHaveLength(1);
    const renamed = await chat.say('/categories rename stream to TV');
    expect(text(renamed)).toContain('Renamed the category to TV');
    expect(await h.db.knex('categories').select('name')).toEqual([{ name: 'TV' }]);
    await chat.press('Undo');
    expect(await h.db.knex('categories').select('name')).toEqual([{ name: 'Streaming' }]);
  });

  it('en español: crea, renombra y borra una categoría, diciendo antes qué pasa con sus suscripciones', async () => {
    await spanish();
    const chat = new ChatDriver(h.core, h.owner);
    expect(text(await chat.say('/categories nueva Ocio'))).toContain('Categoría Ocio creada');
    expect(text(await chat.say('/categories renombrar Ocio a Tele'))).toContain(
      'Categoría renombrada a Tele',
    );
    const tele = (await h.db.knex('categories').first('id')) as { id: string };
    await sub(h.core, h.owner, 'Netflix', { category_id: tele.id });
    const preview = await chat.say('/categories borrar tele');
    expect(text(preview)).toContain('Su suscripción se quedará sin categoría (no se borra).');
    expect(text(preview)).toContain('¿Borrar la categoría Tele?');
    // Nothing is written by the preview.
    expect(await h.db.knex('categories')).toHaveLength(1);
    const done = await chat.press('Confirmar');
    expect(text(done)).toContain('Categoría Tele borrada');
    expect(await h.db.knex('categories')).toHaveLength(0);
    expect(await h.db.knex('subscriptions').first('category_id')).toEqual({ category_id: null });
    expect(await auditOf(h, 'delete_category')).toHaveLength(1);
    const undone = await chat.press('Deshacer');
    expect(text(undone)).toContain('Deshecho: Borrar la categoría Tele');
    expect(text(undone)).not.toContain('?');
    expect(await h.db.knex('categories').select('name')).toEqual([{ name: 'Tele' }]);
    expect(await h.db.knex('subscriptions').first('category_id')).toEqual({ category_id: tele.id });
  });

  it('deletes a category from its card, saying first that its subscriptions stay, then Undo restores them', async () => {
    const tv = await category(h.core, h.owner, 'TV');
    await sub(h.core, h.owner, 'Netflix', { category_id: tv });
    await sub(h.core, h.owner, 'Disney+', { category_id: tv });
    const chat = new ChatDriver(h.core, h.owner);
    const list = await chat.say('/categories');
    expect(text(list)).toContain('• TV — 2 subscriptions');
    const card = await chat.press('TV');
    expect(text(card)).toContain('Netflix');
    const preview = await chat.press('Delete');
    expect(text(preview)).toContain(
      'Its 2 subscriptions will be left without a category (they are not deleted).',
    );
    await chat.press('Confirm');
    expect(await h.db.knex('categories')).toHaveLength(0);
    expect(await h.db.knex('subscriptions').whereNotNull('category_id')).toHaveLength(0);
    const undo = chat.payload('Undo');
    await chat.pressPayload(undo.payload, undo.index);
    expect(await h.db.knex('subscriptions').where({ category_id: tv })).toHaveLength(2);
    // A second press of the same Undo is refused and changes nothing.
    await chat.pressPayload(undo.payload, undo.index);
    expect(chat.channel.notices.at(-1)).toMatch(/already/i);
    expect(await h.db.knex('categories')).toHaveLength(1);
  });

  it('merges one category into another through buttons, with a preview saying where the subscriptions go', async () => {
    const tv = await category(h.core, h.owner, 'TV');
    const streaming = await category(h.core, h.owner, 'Streaming');
    await sub(h.core, h.owner, 'Netflix', { category_id: tv });
    const chat = new ChatDriver(h.core, h.owner);
    await chat.say('/categories TV');
    await chat.press('Merge');
    const preview = await chat.press('Streaming');
    expect(text(preview)).toContain('Merge categories into Streaming?');
    expect(text(preview)).toContain('1 subscription will move to Streaming.');
    await chat.press('Confirm');
    expect(await h.db.knex('categories').select('name')).toEqual([{ name: 'Streaming' }]);
    expect(await h.db.knex('subscriptions').first('category_id')).toEqual({
      category_id: streaming,
    });
    expect(await auditOf(h, 'merge_categories')).toHaveLength(1);
    expect(text(await chat.press('Undo'))).toContain('↩️ Undone: Merge categories into Streaming');
    expect(await h.db.knex('subscriptions').first('category_id')).toEqual({ category_id: tv });
  });

  it('picks from a list when a typed name matches several, and says when it matches none', async () => {
    await category(h.core, h.owner, 'Streaming video');
    await category(h.core, h.owner, 'Streaming music');
    const chat = new ChatDriver(h.core, h.owner);
    const which = await chat.say('/categories delete streaming');
    expect(text(which)).toContain('Which one do you mean by "streaming"?');
    const preview = await chat.press('Streaming music');
    expect(text(preview)).toContain('Streaming music');
    expect(text(await chat.say('/categories delete Gym'))).toContain(
      'There is no category called "Gym".',
    );
    expect(await h.db.knex('categories')).toHaveLength(2);
  });

  it('creates a category from the New button and a typed answer', async () => {
    const chat = new ChatDriver(h.core, h.owner);
    await chat.say('/categories');
    expect(text(await chat.press('New category'))).toContain(
      'What should the new category be called?',
    );
    expect(text(await chat.say('Gym'))).toContain('Created the category Gym');
    expect(await h.db.knex('categories').select('name')).toEqual([{ name: 'Gym' }]);
  });

  it('tags and untags a subscription by its name, and Undo takes the tag back off', async () => {
    const netflix = await sub(h.core, h.owner, 'Netflix');
    await h.core.invoke('create_tag', h.owner, { name: 'work' });
    const chat = new ChatDriver(h.core, h.owner);
    expect(text(await chat.say('/tags tag work netflix'))).toContain('Updated Netflix');
    const links = () => h.db.knex('subscription_tags').where({ subscription_id: netflix });
    expect(await links()).toHaveLength(1);
    await chat.press('Undo');
    expect(await links()).toHaveLength(0);
    await chat.say('/tags tag work Netflix');
    expect(text(await chat.say('/tags tag work Netflix'))).toContain(
      'Netflix is already tagged work.',
    );
    await chat.say('/tags untag work Netflix');
    expect(await links()).toHaveLength(0);
  });

  it('en español: etiqueta desde la ficha de la etiqueta y borra la etiqueta con vista previa', async () => {
    await spanish();
    await sub(h.core, h.owner, 'Spotify');
    await h.core.invoke('create_tag', h.owner, { name: 'ocio' });
    const chat = new ChatDriver(h.core, h.owner);
    await chat.say('/tags');
    await chat.press('ocio');
    expect(text(await chat.press('Etiquetar'))).toContain('¿A qué suscripción le pongo ocio?');
    expect(text(await chat.say('spotify'))).toContain('Spotify');
    expect(await h.db.knex('subscription_tags')).toHaveLength(1);
    const preview = await chat.say('/tags borrar ocio');
    expect(text(preview)).toContain('La etiqueta se quitará de 1 suscripción (no se borra).');
    await chat.press('Confirmar');
    expect(await h.db.knex('tags')).toHaveLength(0);
    expect(await h.db.knex('subscription_tags')).toHaveLength(0);
    await chat.press('Deshacer');
    expect(await h.db.knex('tags')).toHaveLength(1);
    expect(await h.db.knex('subscription_tags')).toHaveLength(1);
  });

  it('creates, renames and deletes payment methods in both languages', async () => {
    const chat = new ChatDriver(h.core, h.owner);
    expect(text(await chat.say('/methods new Joint Visa'))).toContain(
      'Created the payment method Joint Visa',
    );
    expect(await h.db.knex('payment_methods').select('name', 'kind')).toEqual([
      { name: 'Joint Visa', kind: 'card' },
    ]);
    await spanish();
    expect(text(await chat.say('/methods renombrar joint a Visa conjunta'))).toContain(
      'Método de pago renombrado a Visa conjunta',
    );
    const preview = await chat.say('/methods borrar visa');
    expect(text(preview)).toContain('Ninguna suscripción la usa.');
    await chat.press('Confirmar');
    expect(await h.db.knex('payment_methods')).toHaveLength(0);
    expect(await auditOf(h, 'delete_payment_method')).toHaveLength(1);
    await chat.press('Deshacer');
    expect(await h.db.knex('payment_methods').select('name')).toEqual([{ name: 'Visa conjunta' }]);
  });

  it('shows buttons only for ops offered to the member: a catalog without delete_category has no Delete', async () => {
    await category(h.core, h.owner, 'TV');
    const limited = new CoreClass({
      db: h.db,
      catalog: catalog.filter((op: AnyOp) => op.name !== 'delete_category'),
      clock: () => new Date(h.clock.now),
      newId: h.ids.next,
    });
    const chat = new ChatDriver(limited, h.owner);
    await chat.say('/categories TV');
    const labels = (chat.channel.last().buttons ?? []).flat().map((b) => b.label);
    expect(labels.some((l) => l.includes('Rename'))).toBe(true);
    expect(labels.some((l) => l.includes('Delete'))).toBe(false);
  });

  it('leaves nothing half-written when a confirmed delete fails mid-way, and the card stays confirmable', async () => {
    const tv = await category(h.core, h.owner, 'TV');
    await sub(h.core, h.owner, 'Netflix', { category_id: tv });
    let calls = 0;
    const failing = catalog.map((op: AnyOp): AnyOp => {
      if (op.name !== 'delete_category') return op;
      return {
        ...op,
        // The preview (first call) runs; the confirmed run fails after its writes.
        run: async (ctx, input) => {
          const out: unknown = await op.run(ctx, input);
          calls += 1;
          if (calls === 2) throw new Error('disk full');
          return out;
        },
      } as AnyOp;
    });
    const core = new CoreClass({
      db: h.db,
      catalog: failing,
      clock: () => new Date(h.clock.now),
      newId: h.ids.next,
    });
    const chat = new ChatDriver(core, h.owner);
    await chat.say('/categories delete TV');
    const { payload, index } = chat.payload('Confirm');
    await chat.pressPayload(payload, index);
    expect(text(chat.channel.last())).toContain('Nothing was changed');
    expect(await h.db.knex('categories')).toHaveLength(1);
    expect(await h.db.knex('subscriptions').first('category_id')).toEqual({ category_id: tv });
    expect(await auditOf(h, 'delete_category')).toHaveLength(0);
    await chat.pressPayload(payload, index);
    expect(await h.db.knex('categories')).toHaveLength(0);
  });
});

describe(`a previewed change confirmed from two processes at once (${TEST_DIALECT})`, () => {
  it('is applied once: one Confirm wins, the other is told it was already confirmed', async () => {
    const p = await twoProcesses();
    try {
      const { output } = await p.first.invoke('create_category', p.owner, { name: 'TV' });
      const tv = (output as { id: string }).id;
      const one = new ChatDriver(p.first, p.owner);
      await one.say('/categories delete TV');
      const two = one.on(p.second);
      const { payload, index } = one.payload('Confirm');
      await Promise.all([one.pressPayload(payload, index), two.pressPayload(payload, index)]);
      expect(await p.first.db.knex('categories').where({ id: tv })).toHaveLength(0);
      expect(await p.first.db.knex('audit_entries').where({ op: 'delete_category' })).toHaveLength(
        1,
      );
      const told = [...one.channel.notices, ...one.channel.messages.map(text)].join('\n');
      expect(told).toMatch(/already|used/i);
    } finally {
      await p.close();
    }
  });
});
