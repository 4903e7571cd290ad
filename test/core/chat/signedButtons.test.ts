import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ChatEngine, type Conversation } from '../../../core/chat/index.ts';
import {
  buttonKey,
  PAYLOAD_LIMIT,
  signActions,
  verifySigned,
} from '../../../core/chat/signedButtons.ts';
import { BUTTON_TTL_MS, type Owner } from '../../../core/chat/flows.ts';
import { type Actor, memberActor, newcomerActor } from '../../../core/kernel/actor.ts';
import { Core } from '../../../core/kernel/core.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import { serverKey } from '../../../core/store/repos/serverKeys.ts';
import { openSharedTestDatabase } from '../../helpers/sharedDatabase.ts';
import { createTestHousehold, TEST_NOW, type TestHousehold } from '../../helpers/testCore.ts';
import { RecordingChannel } from './recordingChannel.ts';

const text = RecordingChannel.text;
const payload = RecordingChannel.payload;

function conversation(actor: Actor, name: string): Conversation {
  return {
    who: { channel: 'terminal', externalId: null, displayName: name, actor },
    where: { kind: 'private', chatId: 'c' },
  };
}

/** Replaces one character of a payload (after the `~`) with another of its alphabet. */
function flip(p: string, at: number): string {
  const c = p[at] === 'A' ? 'B' : 'A';
  return p.slice(0, at) + c + p.slice(at + 1);
}

describe('signed buttons', () => {
  let h: TestHousehold;
  let engine: ChatEngine;
  let channel: RecordingChannel;
  let ana: Conversation;
  beforeEach(async () => {
    h = await createTestHousehold();
    engine = new ChatEngine({ core: h.core });
    channel = new RecordingChannel();
    ana = conversation(h.owner, 'Ana');
  });
  afterEach(async () => h.close());

  const say = (message: string, conv: Conversation = ana) =>
    engine.handle(conv, { kind: 'text', text: message }, channel);
  const press = (p: string, conv: Conversation = ana, messageId: string | null = null) =>
    engine.handle(
      conv,
      {
        kind: 'press',
        payload: p,
        message: messageId === null ? null : { chatId: 'c', messageId },
      },
      channel,
    );

  /** A member of a second household on the same database. */
  async function otherHousehold(): Promise<Conversation> {
    const created = await h.core.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Other home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      language: 'en',
      owner_name: 'Olga',
    });
    const { household, member } = created.output;
    const olga = memberActor(
      { id: member.id, household_id: household.id, role: 'owner', language: 'en' },
      'cli',
    );
    return conversation(olga, 'Olga');
  }

  it('carry /totals groupings in the payload: the reply writes no flows row and a press regroups', async () => {
    await h.core.invoke('create_subscription', h.owner, { name: 'Netflix', amount: '15.99' });
    await say('/totals');
    const byCategory = payload(channel.last(), 'category');
    expect(byCategory.startsWith('~')).toBe(true);
    expect(Buffer.byteLength(byCategory)).toBeLessThanOrEqual(PAYLOAD_LIMIT);
    await press(byCategory, ana, '0');
    expect(text(channel.messages[0]!)).toContain('Per month by category:');
    expect(await h.db.knex('flows')).toEqual([]);
  });

  it('refuse a forged, an altered and another household’s press with the stale-button sentence, changing nothing', async () => {
    await say('/add Netflix 15.99 EUR monthly 5');
    const undo = payload(channel.last(), 'Undo');
    // The signature changed, the action changed (another audit id), a payload never signed.
    await press(flip(undo, 3));
    await press(undo.replace('act_', 'act_9'));
    await press(`~${'A'.repeat(20)}["undo","act_000001"]`);
    await press(undo, await otherHousehold());
    expect(channel.notices).toEqual(
      Array(4).fill('These buttons have expired. Send the command again.'),
    );
    expect(await h.db.knex('subscriptions')).toHaveLength(1);
  });

  it("tell a housemate pressing someone else's button that it is not theirs, and refuse one past 30 days", async () => {
    await say('/add Netflix 15.99 EUR monthly 5');
    const undo = payload(channel.last(), 'Undo');
    await press(undo, conversation(await h.addMember('Luis'), 'Luis'));
    h.clock.now = new Date(h.clock.now.getTime() + BUTTON_TTL_MS + 3_600_000);
    await press(undo);
    expect(channel.notices).toEqual([
      'These buttons belong to someone else.',
      'These buttons have expired. Send the command again.',
    ]);
    expect(await h.db.knex('subscriptions')).toHaveLength(1);
  });

  it('replayed after its undo, an Undo press changes nothing more and says why', async () => {
    await say('/add Netflix 15.99 EUR monthly 5');
    const undo = payload(channel.last(), 'Undo');
    await press(undo);
    expect(channel.last().card?.title).toContain('Undone');
    expect(await h.db.knex('subscriptions')).toEqual([]);
    const sent = channel.messages.length;
    await press(undo);
    expect(await h.db.knex('subscriptions')).toEqual([]);
    // One sentence, no second "Undone" card.
    const after = channel.messages.slice(sent);
    expect(after.map((m) => m.card?.title ?? '')).not.toContainEqual(
      expect.stringContaining('Undone'),
    );
    expect([...after.map(text), ...channel.notices]).toContain(
      '"Added Netflix" has already been undone.',
    );
  });

  it('keep a flows row for actions that run once per message (a second press is refused)', async () => {
    await say('/add Netflix 15.99 EUR');
    const confirm = payload(channel.last(), 'Add');
    expect(confirm).toMatch(/^btn_[0-9a-z_]+\.\d+$/);
    expect(await h.db.knex('flows').where({ kind: 'button' })).toHaveLength(1);
    await press(confirm);
    await press(confirm);
    expect(channel.notices).toEqual(['That was already done.']);
    expect(await h.db.knex('subscriptions')).toHaveLength(1);
  });

  it('keep a flows row when an action does not fit in 64 bytes', async () => {
    const key = await buttonKey(h.db);
    const owner: Owner = { householdId: h.householdId, memberId: h.ownerId, who: 'terminal:x' };
    const long = { t: 'subs_page', offset: 20, text: 'ñ'.repeat(30) } as const;
    expect(signActions(key, owner, [long], TEST_NOW)).toBeNull();
    const short = signActions(key, owner, [{ ...long, text: 'net' }], TEST_NOW);
    expect(short).toHaveLength(1);
    expect(verifySigned(key, short![0]!, owner, TEST_NOW, BUTTON_TTL_MS)).toEqual({
      ok: true,
      action: { t: 'subs_page', offset: 20, text: 'net' },
    });
  });

  it('keep an absent optional field absent, and a null one null', async () => {
    const key = await buttonKey(h.db);
    const owner: Owner = { householdId: h.householdId, memberId: h.ownerId, who: null };
    const [absent, nulled] = signActions(
      key,
      owner,
      [
        { t: 'undo', audit: 'act_1' },
        { t: 'undo', audit: 'act_1', page: null },
      ],
      TEST_NOW,
    )!;
    expect(verifySigned(key, absent!, owner, TEST_NOW, BUTTON_TTL_MS)).toEqual({
      ok: true,
      action: { t: 'undo', audit: 'act_1' },
    });
    expect(verifySigned(key, nulled!, owner, TEST_NOW, BUTTON_TTL_MS)).toEqual({
      ok: true,
      action: { t: 'undo', audit: 'act_1', page: null },
    });
  });

  it("accept a newcomer's button once they have a household, but not another person's", async () => {
    const key = await buttonKey(h.db);
    const before: Owner = { householdId: null, memberId: null, who: 'telegram:1' };
    const [p] = signActions(key, before, [{ t: 'onboard_currency', currency: 'EUR' }], TEST_NOW)!;
    const joined: Owner = { householdId: h.householdId, memberId: h.ownerId, who: 'telegram:1' };
    expect(verifySigned(key, p!, joined, TEST_NOW, BUTTON_TTL_MS).ok).toBe(true);
    const stranger: Owner = { householdId: null, memberId: null, who: 'telegram:2' };
    expect(verifySigned(key, p!, stranger, TEST_NOW, BUTTON_TTL_MS)).toEqual({
      ok: false,
      reason: 'not_yours',
    });
  });
});

describe('the buttons key', () => {
  it('is shared by every process on a database: a button sent by one Core is pressed in another', async () => {
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
      const { household, member } = created.output;
      const ana = memberActor(
        { id: member.id, household_id: household.id, role: 'owner', language: 'en' },
        'terminal',
      );
      const conv = conversation(ana, 'Ana');
      const channel = new RecordingChannel();
      await new ChatEngine({ core: a }).handle(
        conv,
        { kind: 'text', text: '/add Netflix 15.99 EUR monthly 5' },
        channel,
      );
      const undo = payload(channel.last(), 'Undo');
      expect(undo.startsWith('~')).toBe(true);
      await new ChatEngine({ core: b }).handle(
        conv,
        { kind: 'press', payload: undo, message: null },
        channel,
      );
      expect(channel.last().card?.title).toContain('Undone');
      expect(await b.db.knex('subscriptions')).toEqual([]);
      expect(await a.db.knex('server_keys')).toHaveLength(1);
    } finally {
      await shared.close();
    }
  });

  it('is written once when two processes find it missing at the same moment', async () => {
    const shared = await openSharedTestDatabase();
    try {
      const first = shared.open();
      await first.knex('server_keys').delete();
      const [one, two] = await Promise.all([
        serverKey(first.knex, 'buttons'),
        serverKey(shared.open().knex, 'buttons'),
      ]);
      expect(one.equals(two)).toBe(true);
      expect(await first.knex('server_keys')).toHaveLength(1);
    } finally {
      await shared.close();
    }
  });
});
