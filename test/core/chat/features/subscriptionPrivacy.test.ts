import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type Actor, memberActor, newcomerActor } from '../../../../core/kernel/actor.ts';
import { Core } from '../../../../core/kernel/core.ts';
import type { AnyOp } from '../../../../core/kernel/op.ts';
import { catalog } from '../../../../core/ops/catalog.ts';
import { type ProcessCore, processCores } from '../../../helpers/processCores.ts';
import {
  openSharedTestDatabase,
  type SharedTestDatabase,
} from '../../../helpers/sharedDatabase.ts';
import {
  createTestHousehold,
  TEST_DIALECT,
  type TestHousehold,
} from '../../../helpers/testCore.ts';
import { RecordingChannel } from '../recordingChannel.ts';
import { ChatDriver } from './chatDriver.ts';

const text = ChatDriver.text;
const labels = (chat: ChatDriver) => (chat.channel.last().buttons ?? []).flat().map((b) => b.label);

/**
 * Private or shared from chat: /edit's privacy field (`/edit Tinder privado sí`), the card's Privacy
 * button and its question, only for the subscription's own member and never in a group; applied at
 * once with Undo (it moves no money), once across processes, and not at all when it fails mid-way.
 */
describe(`making a subscription private or shared from chat (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  let tinder: string;
  beforeEach(async () => {
    h = await createTestHousehold();
    tinder = (
      await h.core.invoke('create_subscription', h.owner, { name: 'Tinder', amount: '9.99' })
    ).output.id;
  });
  afterEach(async () => h.close());

  const isPrivate = async () =>
    Number((await h.db.knex('subscriptions').where({ id: tinder }).first()).private);

  it('/edit Tinder private yes, then shared again, with Undo', async () => {
    const chat = new ChatDriver(h.core, h.owner);
    const done = text(await chat.say('/edit Tinder private yes'));
    expect(done).toContain('✅ Updated Tinder');
    expect(done).toContain('🔒 Private: only you see it');
    expect(await isPrivate()).toBe(1);
    await chat.press('Undo');
    expect(await isPrivate()).toBe(0);
    await chat.say('/edit Tinder privacy private');
    expect(await isPrivate()).toBe(1);
    await chat.say('/edit Tinder private no');
    expect(await isPrivate()).toBe(0);
    // The value it already has: nothing to change.
    expect(text(await chat.say('/edit Tinder private shared'))).toBe(
      'ℹ️ Nothing to change: Tinder is already like that.',
    );
    expect(text(await chat.say('/edit Tinder private maybe'))).toBe(
      '⚠️ I couldn\'t read "maybe" as private or shared.\nShould Tinder be private (only you see it) or shared with the household? Pick one, or send private or shared.',
    );
    await chat.say('private');
    expect(await isPrivate()).toBe(1);
  });

  it('en español: /edit Tinder privado sí, y el botón Privacidad de la tarjeta', async () => {
    await h.core.invoke('update_member', h.owner, { id: h.ownerId, language: 'es' });
    const chat = new ChatDriver(h.core, { ...h.owner, locale: 'es' });
    const done = text(await chat.say('/edit Tinder privado sí'));
    expect(done).toContain('✅ Suscripción actualizada: Tinder');
    expect(done).toContain('🔒 Privada: solo la ves tú');
    expect(await isPrivate()).toBe(1);
    await chat.say('/list');
    await chat.press('Tinder');
    expect(labels(chat)).toContain('🔒 Privacidad');
    await chat.press('Privacidad');
    expect(text(chat.channel.last())).toBe(
      '¿Tinder debe ser privada (solo la ves tú) o compartida con el hogar? Elige una, o envía privada o compartida.',
    );
    expect(labels(chat)).toEqual(['✓ 🔒 Privada: solo yo', '👥 Compartida con el hogar']);
    await chat.press('Compartida con el hogar');
    expect(await isPrivate()).toBe(0);
    await chat.say('/edit Tinder privacidad');
    await chat.say('privada');
    expect(await isPrivate()).toBe(1);
  });

  it('is offered to the subscription’s own member only, and never in a group', async () => {
    const ben = await h.addMember('Ben');
    const chat = new ChatDriver(h.core, ben, { name: 'Ben' });
    expect(text(await chat.say('/edit Tinder private yes'))).toBe(
      '⚠️ Only the member Tinder belongs to can make it private: anyone else would lose sight of it.',
    );
    await chat.say('/edit Tinder');
    expect(labels(chat)).not.toContain('Privacy');
    await chat.say('/list');
    await chat.press('Tinder');
    expect(labels(chat)).not.toContain('🔒 Privacy');
    expect(await isPrivate()).toBe(0);
    // In a group everyone reads along.
    const group = new ChatDriver(h.core, h.owner, { group: true });
    await group.say('/link');
    await group.press('Link');
    expect(text(await group.say('/edit Tinder private yes'))).toBe(
      '⚠️ Make Tinder private or shared in a private chat with me: here in this group everyone reads along.',
    );
    expect(await isPrivate()).toBe(0);
  });

  it('writes nothing when applying fails mid-way, and the same answer works afterwards', async () => {
    // The op's own run, then a failure inside its transaction (a process dying before its commit;
    // the casts only re-wrap the catalog's op in a test double).
    const failing = catalog.map((op): AnyOp =>
      op.name === 'update_subscription'
        ? ({
            ...op,
            run: async (ctx: never, input: never) => {
              await (op.run as (c: never, i: never) => Promise<unknown>)(ctx, input);
              throw new Error('disk gone');
            },
          } as AnyOp)
        : op,
    );
    const broken = new ChatDriver(
      new Core({ db: h.db, catalog: failing, clock: () => h.clock.now }),
      h.owner,
    );
    expect(text(await broken.say('/edit Tinder private yes'))).toBe(
      'Sorry, something went wrong on our side. Nothing was changed; please try again.',
    );
    expect(await isPrivate()).toBe(0);
    expect(await h.db.knex('audit_entries').where({ op: 'update_subscription' })).toEqual([]);
    await new ChatDriver(h.core, h.owner).say('/edit Tinder private yes');
    expect(await isPrivate()).toBe(1);
  });
});

describe(`privacy set from two processes at once (${TEST_DIALECT})`, () => {
  let shared: SharedTestDatabase;
  const cores = processCores(() => shared);
  let a: ProcessCore;
  let b: ProcessCore;
  let owner: Actor;
  let tinder: string;
  beforeEach(async () => {
    shared = await openSharedTestDatabase();
    a = await cores.open();
    b = await cores.open();
    const created = await a.core.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      owner_name: 'Ana',
    });
    owner = memberActor(
      { ...created.output.member, household_id: created.output.household.id },
      'terminal',
    );
    tinder = (await a.core.invoke('create_subscription', owner, { name: 'Tinder', amount: '9.99' }))
      .output.id;
  });
  afterEach(async () => {
    await cores.close();
    await shared.close();
  });

  it('answers a question one process asked in the other, and two presses of Private apply once', async () => {
    const channel = new RecordingChannel();
    const first = new ChatDriver(a.core, owner, { channel });
    const second = first.on(b.core);
    await first.say('/edit Tinder privacy');
    await second.say('private');
    const row = () => a.db.knex('subscriptions').where({ id: tinder }).first();
    expect(await row()).toMatchObject({ private: 1 });
    await second.say('/edit Tinder privacy');
    const { payload, index } = first.payload('Shared with the household');
    await Promise.all([first.pressPayload(payload, index), second.pressPayload(payload, index)]);
    expect(await row()).toMatchObject({ private: 0 });
    expect(await a.db.knex('audit_entries').where({ op: 'update_subscription' })).toHaveLength(2);
    expect(first.logged).toEqual([]);
    expect(second.logged).toEqual([]);
  });

  it('applies a privacy change beside another process’s change of the same subscription', async () => {
    const chat = new ChatDriver(a.core, owner);
    await chat.say('/edit Tinder privacy');
    await b.core.invoke('update_subscription', owner, { id: tinder, name: 'Tinder Gold' });
    await chat.say('private');
    expect(await a.db.knex('subscriptions').where({ id: tinder }).first()).toMatchObject({
      name: 'Tinder Gold',
      private: 1,
    });
  });
});
