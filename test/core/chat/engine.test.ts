import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type ChatAssistant, ChatEngine, type Conversation } from '../../../core/chat/index.ts';
import { memberActor } from '../../../core/kernel/actor.ts';
import { Core } from '../../../core/kernel/core.ts';
import type { AnyOp } from '../../../core/kernel/op.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';
import { RecordingChannel } from './recordingChannel.ts';

const text = RecordingChannel.text;
const payload = RecordingChannel.payload;

describe('ChatEngine', () => {
  let h: TestHousehold;
  let engine: ChatEngine;
  let channel: RecordingChannel;
  let owner: Conversation;
  beforeEach(async () => {
    h = await createTestHousehold();
    engine = new ChatEngine({ core: h.core });
    channel = new RecordingChannel();
    owner = {
      who: { channel: 'terminal', externalId: null, displayName: 'Ana', actor: h.owner },
      where: { kind: 'private', chatId: 'c' },
    };
  });
  afterEach(async () => h.close());

  const say = (message: string, conv: Conversation = owner) =>
    engine.handle(conv, { kind: 'text', text: message }, channel);
  const press = (
    p: string,
    conv: Conversation = owner,
    ref: { chatId: string; messageId: string } | null = null,
  ) => engine.handle(conv, { kind: 'press', payload: p, message: ref }, channel);

  it("keeps button payloads under Telegram's 64 bytes, signed so another engine instance can answer them", async () => {
    await say('/add Netflix 15.99 EUR monthly 5');
    const undo = payload(channel.last(), 'Undo');
    expect(Buffer.byteLength(undo)).toBeLessThanOrEqual(64);
    expect(undo).toMatch(/^~/);
    expect(await h.db.knex('flows').where({ kind: 'button' })).toEqual([]);
    const other = new ChatEngine({
      core: new Core({ db: h.db, catalog, clock: () => new Date(h.clock.now) }),
    });
    await other.handle(owner, { kind: 'press', payload: undo, message: null }, channel);
    expect(text(channel.last())).toContain('Added Netflix');
    expect(await h.db.knex('subscriptions')).toEqual([]);
  });

  it("refuses expired, malformed and other people's buttons with a notice, changing nothing", async () => {
    await say('/add Netflix 15.99 EUR monthly 5');
    const undo = payload(channel.last(), 'Undo');
    const luis = await h.addMember('Luis');
    const luisConv: Conversation = {
      who: { channel: 'terminal', externalId: null, displayName: 'Luis', actor: luis },
      where: { kind: 'private', chatId: 'c' },
    };
    await press(undo, luisConv);
    await press('not-a-payload');
    await press('btn_zzzz.0');
    h.clock.now = new Date(h.clock.now.getTime() + 31 * 86_400_000);
    await press(undo);
    expect(channel.notices).toEqual([
      'These buttons belong to someone else.',
      "That button isn't valid.",
      'These buttons have expired. Send the command again.',
      'These buttons have expired. Send the command again.',
    ]);
    expect(await h.db.knex('subscriptions')).toHaveLength(1);
  });

  it('offers only commands whose op is in the catalog and offered on chat', async () => {
    const without = catalog.filter((op) => op.name !== 'get_totals');
    const hidden = catalog.map((op): AnyOp =>
      op.name === 'create_invite' ? ({ ...op, exclude: { chat: 'not here' } } as AnyOp) : op,
    );
    const menu = (ops: readonly AnyOp[]) =>
      new ChatEngine({ core: new Core({ db: h.db, catalog: ops }) })
        .commandMenu('en', 'private')
        .map((c) => c.command);
    expect(menu(catalog)).toEqual([
      'start',
      'add',
      'list',
      'upcoming',
      'totals',
      'edit',
      'paid',
      'skip',
      'pause',
      'resume',
      'cancel',
      'delete',
      'redo',
      'activity',
      'undo',
      'settings',
      'invite',
      'token',
      'web',
      'connect',
      'apps',
      'categories',
      'tags',
      'methods',
      'rates',
      'export',
      'import',
      'assistant',
      'household',
      'members',
      'tokens',
      'help',
    ]);
    expect(menu(without)).not.toContain('totals');
    expect(menu(hidden)).not.toContain('invite');
    const limited = new ChatEngine({ core: new Core({ db: h.db, catalog: without }) });
    await limited.handle(owner, { kind: 'text', text: '/totals' }, channel);
    expect(text(channel.last())).toContain("I don't know /totals");
    expect(
      new ChatEngine({ core: h.core }).commandMenu('es', 'group').map((c) => c.command),
    ).toEqual([
      'start',
      'add',
      'list',
      'upcoming',
      'totals',
      'edit',
      'paid',
      'skip',
      'pause',
      'resume',
      'cancel',
      'delete',
      'link',
      'categories',
      'tags',
      'methods',
      'rates',
      'household',
      'members',
      'help',
    ]);
  });

  it("tells an op's error in the member's language and asks newcomers to start first", async () => {
    const luis = await h.addMember('Luis', 'es');
    const conv: Conversation = {
      who: { channel: 'terminal', externalId: null, displayName: 'Luis', actor: luis },
      where: { kind: 'private', chatId: 'c' },
    };
    await say('/add Gym 10.9999 EUR monthly 5', conv);
    expect(text(channel.last())).toContain('EUR tienen como máximo 2 decimales');
    await say('/invite', conv);
    expect(text(channel.last())).toBe('⚠️ Solo el propietario del hogar puede hacer eso.');
    const stranger: Conversation = {
      who: { channel: 'telegram', externalId: '999', displayName: 'Zoe', languageCode: 'en-US' },
      where: { kind: 'private', chatId: '999' },
    };
    await say('/list', stranger);
    expect(text(channel.last())).toBe(
      "You don't have a household yet. Send /start to set one up, or open an invite link.",
    );
  });

  it('finds a Telegram person by their user id and speaks their language', async () => {
    await h.db.knex('members').where({ id: h.ownerId }).update({ language: 'es' });
    await h.db.knex('member_identities').insert({
      id: 'telegram:555',
      member_id: h.ownerId,
      platform: 'telegram',
      external_id: '555',
      position: 0,
      created_at: '2026-03-01T00:00:00.000Z',
    });
    const conv: Conversation = {
      who: { channel: 'telegram', externalId: '555', displayName: 'Ana', languageCode: 'en' },
      where: { kind: 'private', chatId: '555' },
    };
    await say('/list', conv);
    expect(text(channel.last())).toContain('Todavía no tienes suscripciones.');
  });

  it('hands free text to the assistant when it is configured for the household, else shows the commands', async () => {
    const asked: string[] = [];
    let configured = true;
    const unused = async (): Promise<never> => {
      throw new Error('not used here');
    };
    const assistant: ChatAssistant = {
      isConfigured: async (householdId) => configured && householdId === h.householdId,
      ask: async (_actor, message) => {
        asked.push(message.text);
        return {
          text: 'You spend 26.98 EUR a month.',
          cards: [],
          screen: null,
          notice: null,
          outcome: 'answered',
        };
      },
      confirm: unused,
      discard: unused,
      undo: unused,
    };
    const withAssistant = new ChatEngine({ core: h.core, assistant });
    await withAssistant.handle(owner, { kind: 'text', text: 'how much do I spend?' }, channel);
    expect(asked).toEqual(['how much do I spend?']);
    expect(channel.messages.map(text)).toEqual(['You spend 26.98 EUR a month.']);
    expect(channel.typings).toBeGreaterThanOrEqual(1);
    configured = false;
    await withAssistant.handle(owner, { kind: 'text', text: 'how much do I spend?' }, channel);
    expect(asked).toHaveLength(1);
    expect(text(channel.last())).toContain('I only understand commands for now');
    await say('how much do I spend?');
    expect(text(channel.last())).toContain('I only understand commands for now');
  });

  it('runs onboarding for a person without a household and then speaks as the new member', async () => {
    const db = h.db;
    expect(await db.knex('member_identities')).toEqual([]);
    const conv: Conversation = {
      who: { channel: 'telegram', externalId: '777', displayName: 'Marta', languageCode: 'es-MX' },
      where: { kind: 'private', chatId: '777' },
    };
    await say('/start', conv);
    expect(
      channel
        .last()
        .buttons?.flat()
        .map((b) => b.label),
    ).toEqual(['EUR', 'MXN', 'USD', 'ARS', 'COP', 'CLP', 'Otra…']);
    await press(payload(channel.last(), 'MXN'), conv, {
      chatId: 'c',
      messageId: String(channel.messages.length - 1),
    });
    await press(payload(channel.last(), 'America/Mexico City'), conv, {
      chatId: 'c',
      messageId: String(channel.messages.length - 1),
    });
    expect(text(channel.last())).toContain('Tu hogar está listo');
    const identity = await db
      .knex('member_identities')
      .where({ platform: 'telegram', external_id: '777' })
      .first();
    const member = await db.knex('members').where({ id: identity.member_id }).first();
    expect(member).toMatchObject({ name: 'Marta', role: 'owner', language: 'es' });
    await say('/list', conv);
    expect(text(channel.last())).toContain('Todavía no tienes suscripciones.');
  });

  it('shows cards written from op results, with an Undo that names what it undid', async () => {
    await say('/add Netflix 15.99 EUR monthly 31');
    expect(channel.last().card).toEqual({
      title: '✅ Added Netflix',
      lines: ['15.99 EUR · every month', 'Next charge: Tue, 31 Mar 2026'],
    });
    await press(payload(channel.last(), 'Undo'), owner, { chatId: 'c', messageId: '0' });
    expect(channel.messages[0]?.buttons).toBeUndefined();
    expect(channel.last().card).toEqual({ title: '↩️ Undone', lines: ['Added Netflix'] });
  });

  it('writes one notice per change an agent made, for the member whose token it used', async () => {
    const events: Array<Parameters<ChatEngine['agentNotice']>[0]> = [];
    h.core.bus.subscribe((e) => void events.push(e));
    await h.core.invoke(
      'create_subscription',
      { ...h.owner, kind: 'agent', scope: 'write', channel: 'mcp', agent: { name: 'Cursor' } },
      { name: 'Notion', amount: '8' },
    );
    await h.core.invoke('create_subscription', h.owner, { name: 'Gym', amount: '30' });
    const [byAgent, byMember] = events;
    const notice = await engine.agentNotice(byAgent!);
    expect(notice?.memberId).toBe(h.ownerId);
    expect(notice?.reply.card).toEqual({
      title: '🤖 Cursor changed something for you',
      lines: ['Added Notion'],
    });
    // A second process hearing of the same change sends nothing.
    expect(await new ChatEngine({ core: h.core }).agentNotice(byAgent!)).toBeNull();
    expect(await engine.agentNotice(byMember!)).toBeNull();
  });

  it('shows "typing…" only for work that takes a while', async () => {
    await say('/list');
    expect(channel.typings).toBe(0);
  });

  it('uses the member actor given for the terminal', async () => {
    const actor = memberActor(
      { id: h.ownerId, household_id: h.householdId, role: 'owner', language: 'en' },
      'terminal',
    );
    await say('/add Gym 30 EUR monthly 1', { ...owner, who: { ...owner.who, actor } });
    const entry = await h.db.knex('audit_entries').where({ op: 'create_subscription' }).first();
    expect(entry).toMatchObject({
      channel: 'terminal',
      member_id: h.ownerId,
      actor_kind: 'member',
    });
  });
});
