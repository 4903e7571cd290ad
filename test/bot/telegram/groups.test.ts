import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { newcomerActor } from '../../../core/kernel/actor.ts';
import type { TgChat, TgUser } from '../../fakes/telegramBotApi.ts';
import { createWorld, seedHousehold, type World } from '../harness.ts';

describe('Telegram group and private chats', () => {
  let w: World;
  let ana: TgUser;
  let bob: TgUser;
  let seeded: Awaited<ReturnType<typeof seedHousehold>>;
  beforeEach(async () => {
    w = await createWorld();
    ana = w.tg.user(1001, 'Ana', 'en');
    bob = w.tg.user(1002, 'Bob', 'en');
    const core = w.cores[0]!;
    seeded = await seedHousehold(core, ana);
    const invite = await core.invoke('create_invite', seeded.actor, {});
    await core.invoke('join_household', newcomerActor('telegram', 'en', { telegram: '1002' }), {
      code: (invite.output as { code: string }).code,
      name: 'Bob',
    });
    await core.invoke('create_subscription', seeded.actor, { name: 'Netflix', amount: '15.99' });
    await core.invoke('create_subscription', seeded.actor, {
      name: 'Secret',
      amount: '5',
      private: true,
    });
    await w.start();
  });
  afterEach(async () => w.close());

  async function linkedGroup(): Promise<TgChat> {
    const group = await w.tg.group(-100500, 'Family', ana);
    const [offer] = await w.tg.waitForMessages(-100500, 1);
    expect(offer!.text).toContain("Link this group to Ana's home?");
    await w.tg.tap(ana, offer!, 'Link this group');
    expect(w.tg.message(group.id, offer!.message_id)?.text).toContain(
      "This group is now linked to Ana's home.",
    );
    return group;
  }

  it('is offered to the member who adds the bot to a group; only they may press the button', async () => {
    await w.tg.group(-100500, 'Family', ana);
    const [offer] = await w.tg.waitForMessages(-100500, 1);
    await w.tg.tap(bob, offer!, 'Link this group');
    expect(w.tg.answered.at(-1)?.text).toBe('These buttons belong to someone else.');
    expect(await w.cores[0]!.db.knex('chat_links')).toEqual([]);
    await w.tg.tap(ana, offer!, 'Link this group');
    expect(await w.cores[0]!.db.knex('chat_links').first()).toMatchObject({
      chat_id: '-100500',
      household_id: seeded.householdId,
      channel: 'telegram',
      title: 'Family',
    });
  });

  it('links a group for a member who is not the owner, telling them in Spanish that it is now linked', async () => {
    const core = w.cores[0]!;
    const bobRow = (await core.db.knex('members').where({ name: 'Bob' }).first()) as { id: string };
    await core.invoke('update_member', seeded.actor, { id: bobRow.id, language: 'es' });
    // Ana adds the bot and leaves her offer; Bob asks with /link and presses his own.
    const group = await w.tg.group(-100600, 'Friends', ana);
    await w.tg.waitForMessages(group.id, 1);
    await w.tg.sendText(bob, '/link', group);
    const [, offer] = await w.tg.waitForMessages(group.id, 2);
    expect(offer!.text).toContain("¿Vincular este grupo a Ana's home?");
    await w.tg.tap(bob, offer!, 'Vincular este grupo');
    const said = w.tg.message(group.id, offer!.message_id)?.text ?? '';
    expect(said).toContain("Este grupo queda vinculado a Ana's home.");
    expect(said).not.toContain('ya está');
    expect(await w.cores[0]!.db.knex('chat_links').first()).toMatchObject({
      chat_id: '-100600',
      household_id: seeded.householdId,
    });
  });

  it("takes a member's reply to the bot's question in a group as the answer, and only theirs", async () => {
    const group = await linkedGroup();
    const question = await w.tg.ask(ana, '/add Cine', group);
    expect(question.text).toBe('How much does Cine cost each time? Send an amount like 15.99.');
    // Someone else's reply is not the answer (Bob was not asked): it is free text to the bot.
    const asked = w.tg.botMessages(group.id).length;
    await w.tg.sendText(bob, '3', group, { replyTo: question });
    const [toBob] = (await w.tg.waitForMessages(group.id, asked + 1)).slice(asked);
    expect(toBob!.text).toContain('I only understand commands for now');
    await w.tg.sendText(ana, '12', group, { replyTo: question });
    const [preview] = (await w.tg.waitForMessages(group.id, asked + 2)).slice(asked + 1);
    expect(preview!.text).toContain('Add Cine?');
    expect(preview!.text).toContain('12.00 EUR');
  });

  it('forgets the link when the bot is removed, so the group can be linked again', async () => {
    const group = await linkedGroup();
    await w.tg.removeFromGroup(group.id, ana);
    const links = () => w.cores[0]!.db.knex('chat_links');
    for (let i = 0; i < 100 && (await links()).length > 0; i += 1)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await links()).toEqual([]);
    const before = w.tg.botMessages(group.id).length;
    await w.tg.group(group.id, 'Family', ana);
    const [offer] = (await w.tg.waitForMessages(group.id, before + 1)).slice(before);
    expect(offer!.text).toContain("Link this group to Ana's home?");
  });

  it('runs commands of members in a linked group, hiding private subscriptions and keeping secrets private', async () => {
    const group = await linkedGroup();
    const list = await w.tg.ask(ana, '/list', group);
    expect(list.text).toContain('Netflix');
    expect(list.text).not.toContain('Secret');
    expect(list.text).not.toContain('private');
    const privately = await w.tg.ask(ana, '/list');
    expect(privately.text).toContain('Secret');
    const upcoming = await w.tg.ask(ana, '/upcoming', group);
    expect(upcoming.text).toContain('Netflix');
    expect(upcoming.text).not.toContain('Secret');
    expect((await w.tg.ask(ana, '/upcoming')).text).toContain('Secret');

    const added = await w.tg.ask(bob, '/add@exhale_test_bot Gym 30 EUR monthly 1', group);
    expect(added.text).toContain('✅ Added Gym');
    const gym = await w.cores[0]!.db.knex('subscriptions').where({ name: 'Gym' }).first();
    expect(gym.member_id).not.toBe(seeded.memberId);

    expect((await w.tg.ask(ana, '/token', group)).text).toBe(
      'For your privacy, /token only works in a private chat with me.',
    );
    expect((await w.tg.ask(ana, '/activity', group)).text).toContain(
      'only works in a private chat',
    );
    // A file sent with /import as its caption gets /import's answer, as /import typed there does.
    const typed = (await w.tg.ask(ana, '/import', group)).text;
    expect(typed).toBe('For your privacy, /import only works in a private chat with me.');
    const sent = w.tg.botMessages(group.id).length;
    const json = new TextEncoder().encode('{"format":"exhale/1","subscriptions":[]}');
    await w.tg.sendDocument(ana, json, { name: 'export.json', caption: '/import', chat: group });
    const [captioned] = (await w.tg.waitForMessages(group.id, sent + 1)).slice(sent);
    expect(captioned!.text).toBe(typed);
    await w.tg.sendDocument(bob, json, {
      name: 'export.json',
      caption: '/import@exhale_test_bot',
      chat: group,
    });
    const [named] = (await w.tg.waitForMessages(group.id, sent + 2)).slice(sent + 1);
    expect(named!.text).toBe(typed);
    // Not for us, and free text in a group: no answer.
    const before = w.tg.botMessages(group.id).length;
    await w.tg.sendDocument(ana, json, {
      name: 'export.json',
      caption: '/import@some_other_bot',
      chat: group,
    });
    await w.tg.sendText(ana, '/list@some_other_bot', group);
    await w.tg.sendText(ana, 'what do we pay for netflix?', group);
    await w.tg.ask(ana, '/help', group);
    expect(w.tg.botMessages(group.id)).toHaveLength(before + 1);
  });

  it('asks strangers to start privately and unlinked groups to link first', async () => {
    const group = await linkedGroup();
    const carol = w.tg.user(1003, 'Carol', 'es');
    expect((await w.tg.ask(carol, '/list', group)).text).toContain(
      'primero abre un chat privado conmigo',
    );
    const other = await w.tg.group(-100600, 'Work', bob);
    await w.tg.waitForMessages(other.id, 1);
    expect((await w.tg.ask(ana, '/list', other)).text).toBe(
      "This group isn't linked to a household yet. Send /link to link it.",
    );
  });
});
