import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { Actor } from '../../../core/kernel/actor.ts';
import type { TgMessage, TgUser } from '../../fakes/telegramBotApi.ts';
import { createWorld, seedHousehold, type World } from '../harness.ts';

const keys = (m: TgMessage | undefined): string[] =>
  (m?.reply_markup?.inline_keyboard ?? []).flat().map((b) => b.text);

/**
 * Managing a subscription from Telegram with no model: the card reached from an Added card and
 * /list, its buttons through the pending-change service, /delete and /edit, in English and
 * Spanish, each checked in the database (the change, its audit entry, Undo restoring it).
 */
describe('Telegram: a subscription managed from chat', () => {
  let w: World;
  let ana: TgUser;
  let luis: TgUser;
  let anaActor: Actor;
  beforeEach(async () => {
    w = await createWorld();
    ana = w.tg.user(1001, 'Ana', 'en');
    luis = w.tg.user(1002, 'Luis', 'es');
    anaActor = (await seedHousehold(w.cores[0]!, ana)).actor;
    await seedHousehold(w.cores[0]!, luis, { language: 'es' });
    await w.start({ miniAppUrl: 'https://app.example.test/' });
  });
  afterEach(async () => w.close());

  const knex = () => w.cores[0]!.db.knex;
  const netflix = () => knex()('subscriptions').where({ name: 'Netflix' }).first();
  const last = (user: TgUser) => w.tg.lastBotMessage(user.id)!;

  it('opens the card from the Added card, pauses with Undo, deletes after its preview, and Undo brings it back', async () => {
    const added = await w.tg.ask(ana, '/add Netflix 15.99 EUR monthly 5');
    expect(keys(added)).toEqual(['↩️ Undo', '⚙️ Manage']);
    await w.tg.tap(ana, added, 'Manage');
    const card = last(ana);
    expect(card.text).toBe(
      '📄 Netflix\n15.99 EUR · every month\nNext charge: Thu, 5 Mar 2026\nActive',
    );
    expect(keys(card)).toEqual([
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
      '📱 Open in app',
    ]);
    const app = card.reply_markup!.inline_keyboard.flat().find((b) => b.web_app);
    expect(app?.web_app?.url).toMatch(/^https:\/\/app\.example\.test\/subscriptions\/sub_/);

    await w.tg.tap(ana, card, 'Pause');
    expect(last(ana).text).toContain('✅ Paused Netflix');
    expect(await netflix()).toMatchObject({ status: 'paused' });
    await w.tg.tap(ana, last(ana), 'Undo');
    expect(await netflix()).toMatchObject({ status: 'active' });

    const preview = await w.tg.ask(ana, '/delete netflix');
    expect(preview.text).toBe(
      '⚠️ Delete Netflix?\n🗑 Subscription: Netflix · 15.99 EUR · every month',
    );
    expect(keys(preview)).toEqual(['🗑️ Yes, delete', '✖️ Discard']);
    // A double tap: one deletion, and a toast for the second.
    const yes = preview.reply_markup!.inline_keyboard.flat()[0]!.callback_data!;
    const first = await w.tg.press(ana, preview, yes);
    const second = await w.tg.pressStale(ana, preview, yes);
    await w.tg.waitFor((api) =>
      [first, second].every((u) => api.answered.some((a) => a.id === u.callback_query!.id)),
    );
    expect(await netflix()).toBeUndefined();
    expect(await knex()('audit_entries').where({ op: 'delete_subscription' })).toHaveLength(1);
    const done = w.tg.message(ana.id, preview.message_id)!;
    expect(keys(done)).toEqual(['↩️ Undo']);
    await w.tg.tap(ana, done, 'Undo');
    expect(await netflix()).toMatchObject({ name: 'Netflix', amount_minor: 1599 });
    expect(w.logged).toEqual([]);
  });

  it('refuses a stale card by name after its subscription was deleted, and takes its buttons off', async () => {
    await w.tg.ask(ana, '/add Netflix 15.99 EUR monthly 5');
    const list = await w.tg.ask(ana, '/list');
    await w.tg.tap(ana, list, 'Netflix');
    const card = last(ana);
    const row = await netflix();
    await w.cores[0]!.invoke('delete_subscription', anaActor, { id: row.id });
    await w.tg.tap(ana, card, 'Pause');
    expect(last(ana).text).toBe(
      '⚠️ Netflix was deleted since this was shown, so nothing was changed.',
    );
    expect(w.tg.message(ana.id, card.message_id)?.reply_markup).toBeUndefined();
  });

  it('edits by conversation in Spanish: field, value read as /add reads it, the reason when it does not read, then Undo', async () => {
    await w.tg.ask(luis, '/add Netflix 15,99 EUR mensual 5');
    await w.tg.tap(luis, last(luis), 'Gestionar');
    await w.tg.tap(luis, last(luis), 'Editar');
    expect(last(luis).text).toBe('✏️ Editar Netflix\n¿Qué quieres cambiar?');
    await w.tg.tap(luis, last(luis), 'Precio');
    expect(last(luis).text).toContain('¿Cuál es el nuevo precio de Netflix?');
    const bad = await w.tg.ask(luis, 'caro');
    expect(bad.text).toContain('⚠️ No he podido leer «caro» como un precio.');
    const preview = await w.tg.ask(luis, '17,99 desde abril');
    expect(preview.text).toContain('📝 ¿Cambiar Netflix?');
    expect(preview.text).toContain('Desde el mié, 1 abr 2026');
    await w.tg.tap(luis, preview, 'Confirmar');
    const changes = () => knex()('price_changes');
    expect(await changes()).toMatchObject([
      { effective_date: '2026-04-01', old_amount_minor: 1599, new_amount_minor: 1799 },
    ]);
    const done = w.tg.message(luis.id, preview.message_id)!;
    expect(done.text).toContain('✅');
    await w.tg.tap(luis, done, 'Deshacer');
    expect(await changes()).toEqual([]);
    expect(await netflix()).toMatchObject({ amount_minor: 1599 });
  });

  it("lists the new commands in Telegram's menus, in English and Spanish", () => {
    const menus = w.tg.callsOf('setMyCommands').filter((c) => c.ok);
    const menu = (scope: string, language: string | undefined) =>
      menus.find(
        (c) =>
          (c.params.scope as { type: string }).type === scope &&
          c.params.language_code === language,
      )?.params.commands as Array<{ command: string; description: string }>;
    const names = (m: Array<{ command: string }>) => m.map((c) => c.command);
    for (const command of ['edit', 'paid', 'skip', 'pause', 'resume', 'cancel', 'delete', 'redo'])
      expect(names(menu('all_private_chats', undefined))).toContain(command);
    expect(menu('all_private_chats', 'es')).toContainEqual({
      command: 'redo',
      description: 'Rehacer lo último que deshiciste',
    });
    expect(menu('all_private_chats', undefined)).toContainEqual({
      command: 'edit',
      description: 'Change a subscription: /edit Netflix price 17.99 from March',
    });
    // /redo, like /undo, stays in private chats.
    expect(names(menu('all_group_chats', 'es'))).not.toContain('redo');
    expect(names(menu('all_group_chats', 'es'))).toContain('pause');
  });
});
