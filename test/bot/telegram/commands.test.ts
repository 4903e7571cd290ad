import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type ChatFeature, FEATURES } from '../../../core/chat/index.ts';
import { t } from '../../../core/i18n/index.ts';
import type { TgUser } from '../../fakes/telegramBotApi.ts';
import { createWorld, seedHousehold, type World } from '../harness.ts';

/** Every registered feature, as the engine reads the list. */
const declared: readonly ChatFeature[] = FEATURES;

describe('Telegram commands', () => {
  let w: World;
  let ana: TgUser;
  let seeded: Awaited<ReturnType<typeof seedHousehold>>;
  beforeEach(async () => {
    w = await createWorld();
    ana = w.tg.user(1001, 'Ana', 'en');
    seeded = await seedHousehold(w.cores[0]!, ana);
    await w.start();
  });
  afterEach(async () => w.close());

  const subs = () => w.cores[0]!.db.knex('subscriptions').orderBy('name');

  it("registers the features' commands as the menus of private and group chats, in English and Spanish", async () => {
    const calls = w.tg.callsOf('setMyCommands').filter((c) => c.ok);
    const menu = (place: 'private' | 'group', language: 'en' | 'es') =>
      declared
        .flatMap((f) => f.commands ?? [])
        .filter((c) => c.place === 'any' || c.place === place)
        .map((c) => ({
          command: c.command,
          // A Telegram group is a "group": `{group}` in a description is Telegram's word.
          description: t(language, `chat.cmd.${c.command}`, {
            group: t(language, 'chat.polish.word.group'),
          }),
        }));
    const sent = calls.map((c) => ({
      scope: (c.params.scope as { type: string }).type,
      language: c.params.language_code ?? 'default',
      commands: c.params.commands,
    }));
    expect(sent).toEqual([
      { scope: 'all_private_chats', language: 'default', commands: menu('private', 'en') },
      { scope: 'all_private_chats', language: 'es', commands: menu('private', 'es') },
      { scope: 'all_group_chats', language: 'default', commands: menu('group', 'en') },
      { scope: 'all_group_chats', language: 'es', commands: menu('group', 'es') },
    ]);
    expect(menu('group', 'es').map((c) => c.command)).toContain('link');
    expect(menu('group', 'en').find((c) => c.command === 'link')?.description).toBe(
      'Link this group to your household',
    );
  });

  it('adds a subscription from one line and shows it as a card with Undo, which removes it, and Redo brings it back', async () => {
    const card = await w.tg.ask(ana, '/add Netflix 15.99 EUR monthly 5');
    expect(card.text).toBe(
      '✅ Added Netflix\n15.99 EUR · every month\nNext charge: Thu, 5 Mar 2026',
    );
    expect(card.source).toContain('<b>✅ Added Netflix</b>');
    expect(
      (await subs()).map((s: { name: string; amount_minor: number; first_charge_date: string }) => [
        s.name,
        s.amount_minor,
        s.first_charge_date,
      ]),
    ).toEqual([['Netflix', 1599, '2026-03-05']]);
    const undo = card
      .reply_markup!.inline_keyboard.flat()
      .find((b) => b.text.includes('Undo'))!.callback_data!;
    const oldCard = structuredClone(card);
    await w.tg.tap(ana, card, 'Undo');
    expect(await subs()).toEqual([]);
    expect(w.tg.message(ana.id, card.message_id)?.reply_markup).toBeUndefined();
    const undone = w.tg.lastBotMessage(ana.id)!;
    // A double tap: the second press is answered with a toast, not another message.
    const sent = w.tg.botMessages(ana.id).length;
    const again = await w.tg.pressStale(ana, oldCard, undo);
    await w.tg.waitFor((api) => api.answered.some((a) => a.id === again.callback_query!.id));
    expect(w.tg.answered.find((a) => a.id === again.callback_query!.id)?.text).toBe(
      '"Added Netflix" has already been undone.',
    );
    expect(w.tg.botMessages(ana.id)).toHaveLength(sent);
    expect(undone.text).toContain('Undone\nAdded Netflix');
    await w.tg.tap(ana, undone, 'Redo');
    expect((await subs()).map((s: { name: string }) => s.name)).toEqual(['Netflix']);
    // The redo card says the change is back and offers Undo, which takes it away again.
    const redone = w.tg.lastBotMessage(ana.id)!;
    expect(redone.text).toBe('🔁 Redone\nAdded Netflix');
    await w.tg.tap(ana, redone, 'Undo');
    expect(await subs()).toEqual([]);
    expect(w.tg.lastBotMessage(ana.id)!.text).toBe('↩️ Undone\nAdded Netflix');
    expect(w.logged).toEqual([]);
  });

  it('previews an incomplete line with buttons to fix the cycle and currency, then adds it once', async () => {
    const preview = await w.tg.ask(ana, '/add Spotify 9.99');
    expect(preview.text).toContain('Add Spotify?');
    expect(preview.text).toContain('9.99 EUR · every month');
    expect(await subs()).toEqual([]);
    await w.tg.tap(ana, preview, 'Yearly');
    await w.tg.tap(ana, w.tg.message(ana.id, preview.message_id)!, 'USD');
    const fixed = w.tg.message(ana.id, preview.message_id)!;
    expect(fixed.text).toContain('9.99 USD · every year');
    // Two presses of Add (a double tap, or two processes): one subscription.
    const addData = fixed
      .reply_markup!.inline_keyboard.flat()
      .find((b) => b.text.includes('Add'))!.callback_data!;
    const first = await w.tg.press(ana, fixed, addData);
    const second = await w.tg.press(ana, fixed, addData);
    await w.tg.waitFor((api) =>
      [first, second].every((u) => api.answered.some((a) => a.id === u.callback_query!.id)),
    );
    expect(
      (await subs()).map((s: { name: string; currency: string; cycle_unit: string }) => [
        s.name,
        s.currency,
        s.cycle_unit,
      ]),
    ).toEqual([['Spotify', 'USD', 'year']]);
    expect(w.tg.answered.find((a) => a.id === second.callback_query!.id)?.text).toBe(
      'That was already done.',
    );
    expect(w.tg.message(ana.id, preview.message_id)?.text).toContain('✅ Added Spotify');
  });

  it('reads a quarterly cycle and a thousands separator, and keeps that cycle offered in the preview', async () => {
    const preview = await w.tg.ask(ana, '/add Seguro hogar 1.234,50 € trimestral');
    expect(preview.text).toContain('Add Seguro hogar?');
    expect(preview.text).toContain('1234.50 EUR · every 3 months');
    const labels = preview.reply_markup!.inline_keyboard[0]!.map((b) => b.text);
    expect(labels).toEqual(['✓ every 3 months', 'Monthly', 'Yearly', 'Weekly']);
    await w.tg.tap(ana, preview, 'Add');
    expect(
      (await subs()).map((s: { amount_minor: number; cycle_unit: string; cycle_every: number }) => [
        s.amount_minor,
        s.cycle_unit,
        s.cycle_every,
      ]),
    ).toEqual([[123450, 'month', 3]]);
  });

  it('refuses presses on an old copy of a preview that was added or cancelled', async () => {
    // Copies, as a client that missed the edits still shows them.
    const preview = structuredClone(await w.tg.ask(ana, '/add Paramount 7.99'));
    const data = (label: string): string =>
      preview.reply_markup!.inline_keyboard.flat().find((b) => b.text.includes(label))!
        .callback_data!;
    const [add, yearly] = [data('Add'), data('Yearly')];
    await w.tg.tap(ana, preview, 'Cancel');
    expect(w.tg.message(ana.id, preview.message_id)?.text).toBe('Cancelled. Nothing was changed.');
    const late = await w.tg.pressStale(ana, preview, add);
    await w.tg.waitFor((api) => api.answered.some((a) => a.id === late.callback_query!.id));
    expect(w.tg.answered.find((a) => a.id === late.callback_query!.id)?.text).toBe(
      'That was already done.',
    );
    expect(await subs()).toEqual([]);

    const second = structuredClone(await w.tg.ask(ana, '/add Paramount 7.99'));
    const addAgain = second
      .reply_markup!.inline_keyboard.flat()
      .find((b) => b.text.includes('Add'))!.callback_data!;
    const yearlyAgain = second
      .reply_markup!.inline_keyboard.flat()
      .find((b) => b.text.includes('Yearly'))!.callback_data!;
    await w.tg.press(ana, second, addAgain);
    await w.tg.waitFor(
      (api) => api.message(ana.id, second.message_id)?.text?.includes('Added') ?? false,
    );
    const stale = await w.tg.pressStale(ana, second, yearlyAgain);
    await w.tg.waitFor((api) => api.answered.some((a) => a.id === stale.callback_query!.id));
    expect(w.tg.message(ana.id, second.message_id)?.text).toContain('✅ Added Paramount');
    expect((await subs()).map((s: { cycle_unit: string }) => s.cycle_unit)).toEqual(['month']);
    expect(yearly).not.toBe(yearlyAgain);
  });

  it('asks for the price when the line has none, and explains words it does not understand', async () => {
    const asked = await w.tg.ask(ana, '/add Disney Plus');
    expect(asked.text).toBe('How much does Disney Plus cost each time? Send an amount like 15.99.');
    const preview = await w.tg.ask(ana, '8,99');
    expect(preview.text).toContain('Add Disney Plus?');
    expect(preview.text).toContain('8.99 EUR');
    await w.tg.tap(ana, preview, 'Add');
    expect(
      (await subs()).map((s: { name: string; amount_minor: number }) => [s.name, s.amount_minor]),
    ).toEqual([['Disney Plus', 899]]);
    const unknown = await w.tg.ask(ana, '/add Gym 30 EUR monthly 5 please');
    expect(unknown.text).toContain('I didn\'t understand "please"');
    const invalid = await w.tg.ask(ana, '/add Gym 30.1234 EUR monthly 5');
    expect(invalid.text).toContain('EUR amounts have at most 2 decimals');
    // Three decimals read as thousands, so the line is shown before anything is added.
    const unsure = await w.tg.ask(ana, '/add Gym 30.123 EUR monthly 5');
    expect(unsure.text).toContain('Add Gym?');
    expect(unsure.text).toContain('30123.00 EUR · every month');
    expect(await subs()).toHaveLength(1);
  });

  it('lists subscriptions a page at a time, editing the message with Next and Previous', async () => {
    for (let i = 1; i <= 23; i += 1) {
      await w.cores[0]!.invoke('create_subscription', seeded.actor, {
        name: `Service ${String(i).padStart(2, '0')}`,
        amount: `${i}.00`,
      });
    }
    const page = await w.tg.ask(ana, '/list');
    expect(page.text).toContain('Subscriptions 1–10 of 23');
    expect(page.text).toContain('• Service 01 — 1.00 EUR · every month');
    // Each one listed opens its card; the last row pages.
    const cards = Array.from(
      { length: 10 },
      (_, i) => `📄 Service ${String(i + 1).padStart(2, '0')}`,
    );
    expect(page.reply_markup!.inline_keyboard.flat().map((b) => b.text)).toEqual([
      ...cards,
      'Next ▶️',
    ]);
    await w.tg.tap(ana, page, 'Next');
    expect(w.tg.message(ana.id, page.message_id)?.text).toContain('Subscriptions 11–20 of 23');
    await w.tg.tap(ana, w.tg.message(ana.id, page.message_id)!, 'Next');
    const last = w.tg.message(ana.id, page.message_id)!;
    expect(last.text).toContain('Subscriptions 21–23 of 23');
    expect(last.text).toContain('Service 23');
    expect(last.reply_markup!.inline_keyboard.flat().map((b) => b.text)).toEqual([
      '📄 Service 21',
      '📄 Service 22',
      '📄 Service 23',
      '◀️ Previous',
    ]);
    await w.tg.tap(ana, last, 'Previous');
    expect(w.tg.message(ana.id, page.message_id)?.text).toContain('Subscriptions 11–20 of 23');
    expect(w.tg.botMessages(ana.id)).toHaveLength(1);
  });

  it('shows activity with an Undo button per change (Redo on an undo) and redraws the page after an undo', async () => {
    await w.tg.ask(ana, '/add Netflix 15.99 EUR monthly 5');
    await w.tg.ask(ana, '/add Gym 30 EUR monthly 1');
    const activity = await w.tg.ask(ana, '/activity');
    expect(activity.text).toMatch(/1\. Added Gym\n {4}Ana · Telegram · /);
    expect(activity.text).toContain('2. Added Netflix');
    await w.tg.tap(ana, activity, 'Undo 2');
    expect((await subs()).map((s: { name: string }) => s.name)).toEqual(['Gym']);
    const redrawn = w.tg.message(ana.id, activity.message_id)!;
    expect(redrawn.text).toContain('Added Netflix (undone)');
    // Now: 1. the undo itself (pressing it redoes), 2. Added Gym, 3. Added Netflix (undone), 4. the
    // household (never undone).
    expect(redrawn.reply_markup!.inline_keyboard.flat().map((b) => b.text)).toEqual([
      '🔁 Redo 1',
      '↩️ Undo 2',
    ]);

    // More changes make more pages; from an older one, Newest goes back to the first.
    for (let i = 1; i <= 8; i += 1) await w.tg.ask(ana, `/add Service${i} ${i} EUR monthly 1`);
    const first = await w.tg.ask(ana, '/activity');
    await w.tg.tap(ana, first, 'Older');
    const older = w.tg.message(ana.id, first.message_id)!;
    const paging = older.reply_markup!.inline_keyboard.at(-1)!.map((b) => b.text);
    expect(paging).toEqual(['⏮️ Newest', 'Older ▶️']);
    await w.tg.tap(ana, older, 'Newest');
    expect(w.tg.message(ana.id, first.message_id)!.text).toContain('1. Added Service8');
  });

  it('answers free text with the command list, and /upcoming and /totals from the insight ops', async () => {
    const help = await w.tg.ask(ana, 'hello there');
    expect(help.text).toContain('I only understand commands for now');
    expect(help.text).toContain('/add — Add a subscription in one line');
    await w.tg.ask(ana, '/add Netflix 15.99 EUR monthly 5');
    await w.tg.ask(ana, '/add Cloud 120 EUR yearly 2026-03-20');
    const upcoming = await w.tg.ask(ana, '/upcoming');
    expect(upcoming.text).toContain('Coming up');
    expect(upcoming.text).toContain('Thu, 5 Mar 2026 (in 3 days) — Netflix 15.99 EUR');
    expect(upcoming.text).toContain('Fri, 20 Mar 2026 (in 18 days) — Cloud 120.00 EUR');
    expect(upcoming.text).toContain('Charges in the next 30 days: 135.99 EUR');
    const totals = await w.tg.ask(ana, '/totals');
    expect(totals.text).toContain('Per month: 25.99 EUR');
    expect(totals.text).toContain('Per year: 311.88 EUR');
    await w.tg.tap(ana, totals, 'By member');
    expect(w.tg.message(ana.id, totals.message_id)?.text).toContain('• Ana: 25.99 EUR');

    // Foreign amounts: the card says which rate converted them, and names what had none.
    await w.tg.ask(ana, '/add Hulu 10 USD monthly 5');
    await w.tg.ask(ana, '/add Tidal 10 GBP monthly 5');
    await w.tg.ask(ana, '/add Dropbox 119.88 CHF yearly 2026-05-01');
    await w.cores[0]!.invoke('set_exchange_rate', seeded.actor, {
      currency: 'USD',
      rate: '1.25',
      date: '2026-03-01',
    });
    const mixed = await w.tg.ask(ana, '/totals');
    expect(mixed.text).toContain('Per month: 33.99 EUR');
    expect(mixed.text).toContain('1 USD = 0.8 EUR (set by hand, Sun, 1 Mar 2026: an old rate)');
    // Totals now are monthly, and so are the amounts left out: Dropbox costs 119.88 CHF a year.
    // (In the order get_totals lists them, which the database decides.)
    expect(mixed.text).toContain('⚠️ Left out, with no exchange rate: ');
    expect(mixed.text).toContain('Tidal 10.00 GBP a month');
    expect(mixed.text).toContain('Dropbox 9.99 CHF a month');
  });

  it('changes settings with buttons through update_member, each change with Undo', async () => {
    const settings = await w.tg.ask(ana, '/settings');
    expect(settings.text).toContain('Reminders: 3, 1 days before, at 09:00');
    await w.tg.tap(ana, settings, '19:00');
    const saved = w.tg.lastBotMessage(ana.id)!;
    expect(saved.text).toContain('Settings saved');
    expect(saved.text).toContain('Reminders: 3, 1 days before, at 19:00');
    // The settings message itself is redrawn with the new tick; the same tap again changes nothing.
    const redrawn = w.tg.message(ana.id, settings.message_id)!;
    expect(redrawn.reply_markup!.inline_keyboard.flat().map((b) => b.text)).toContain('✓ 19:00');
    const sent = w.tg.botMessages(ana.id).length;
    await w.tg.tap(ana, redrawn, '19:00');
    expect(w.tg.answered.at(-1)?.text).toBe('That is already your setting.');
    expect(w.tg.botMessages(ana.id)).toHaveLength(sent);
    await w.tg.tap(ana, settings, 'Español');
    const savedSpanish = w.tg.lastBotMessage(ana.id)!;
    expect((await w.cores[0]!.db.knex('members').first()).language).toBe('es');
    const spanish = await w.tg.ask(ana, '/settings');
    expect(spanish.text).toContain('Ajustes');
    // The member changed again since the time change: undoing it first is refused, in Spanish now.
    await w.tg.tap(ana, saved, 'Undo');
    expect(w.tg.lastBotMessage(ana.id)?.text).toContain('No se puede deshacer');
    await w.tg.tap(ana, savedSpanish, 'Deshacer');
    await w.tg.tap(ana, saved, 'Undo');
    expect(await w.cores[0]!.db.knex('members').first()).toMatchObject({
      language: 'en',
      reminder_time: '09:00',
    });
  });

  it('creates an agent token after asking its scope, shown once with Undo to revoke it', async () => {
    const ask = await w.tg.ask(ana, '/token Claude Desktop');
    expect(ask.text).toContain('What may "Claude Desktop" do?');
    await w.tg.tap(ana, ask, 'Read and change');
    const shown = w.tg.message(ana.id, ask.message_id)!;
    expect(shown.text).toContain('Token for Claude Desktop');
    expect(shown.source).toMatch(/<code>[^<]+<\/code>/);
    const token = await w.cores[0]!.db.knex('tokens').first();
    expect(token).toMatchObject({ name: 'Claude Desktop', scope: 'write', revoked_at: null });
    await w.tg.tap(ana, shown, 'Undo');
    expect(await w.cores[0]!.db.knex('tokens')).toEqual([]);
  });
});
