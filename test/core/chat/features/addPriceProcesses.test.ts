import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type Actor, memberActor, newcomerActor } from '../../../../core/kernel/actor.ts';
import { type ProcessCore, processCores } from '../../../helpers/processCores.ts';
import {
  openSharedTestDatabase,
  type SharedTestDatabase,
} from '../../../helpers/sharedDatabase.ts';
import { TEST_DIALECT } from '../../../helpers/testCore.ts';
import { ChatDriver } from './chatDriver.ts';

const text = ChatDriver.text;

/**
 * The price asked again after an unreadable or unstorable one is a `flows` row like every
 * question: another process answers it, and a refused price writes nothing anywhere.
 */
describe(`/add's price asked again, across two processes (${TEST_DIALECT})`, () => {
  let shared: SharedTestDatabase;
  const cores = processCores(() => shared);
  let a: ProcessCore;
  let b: ProcessCore;
  let owner: Actor;

  beforeEach(async () => {
    shared = await openSharedTestDatabase();
    a = await cores.open();
    b = await cores.open();
    const created = await a.core.invoke(
      'create_household',
      newcomerActor('telegram', 'en', { telegram: '42' }),
      { name: 'Home', currency: 'EUR', time_zone: 'Europe/Madrid', owner_name: 'Ana' },
    );
    owner = memberActor(
      { ...created.output.member, household_id: created.output.household.id },
      'terminal',
    );
  });
  afterEach(async () => {
    await cores.close();
    await shared.close();
  });

  it('asks in one process after "twelve" and "-5", and the other takes 12.50 for Gym', async () => {
    const first = new ChatDriver(a.core, owner);
    expect(text(await first.say('/add Gym twelve EUR monthly'))).toContain(
      'I couldn\'t read "twelve" as a price',
    );
    expect(text(await first.say('-5'))).toContain('I can\'t use "-5" as a price');
    const second = first.on(b.core);
    expect(text(await second.say('12.50'))).toContain('Add Gym?');
    await second.press('Add');
    expect(await b.core.db.knex('subscriptions').select('name', 'amount_minor')).toEqual([
      { name: 'Gym', amount_minor: 1250 },
    ]);
    expect(await a.core.db.knex('audit_entries').where({ op: 'create_subscription' })).toHaveLength(
      1,
    );
  });
});
