import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  createTestHousehold,
  TEST_DIALECT,
  type TestHousehold,
} from '../../../helpers/testCore.ts';
import { ChatDriver } from './chatDriver.ts';

const text = ChatDriver.text;

describe(`/household, /members and /tokens in chat (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  const householdRow = () =>
    h.db.knex('households').where({ id: h.householdId }).first('currency', 'time_zone', 'name');

  it('sets the currency and, from a city, the time zone, each with Undo', async () => {
    const chat = new ChatDriver(h.core, h.owner);
    expect(text(await chat.say('/household'))).toContain('/household currency USD');
    expect(text(await chat.say('/household currency usd'))).toContain('Household settings saved');
    expect(await householdRow()).toMatchObject({ currency: 'USD' });
    await chat.say('/household timezone Lisbon');
    expect(await householdRow()).toMatchObject({ time_zone: 'Europe/Lisbon' });
    expect(await h.db.knex('audit_entries').where({ op: 'update_household' })).toHaveLength(2);
    await chat.press('Undo');
    expect(await householdRow()).toMatchObject({ currency: 'USD', time_zone: 'Europe/Madrid' });
  });

  it('en español: quien no es propietario no cambia el hogar, y se le dice por qué', async () => {
    const luis = await h.addMember('Luis', 'es');
    const chat = new ChatDriver(h.core, luis, { name: 'Luis' });
    expect(text(await chat.say('/household moneda USD'))).toContain('propietario');
    expect(await householdRow()).toMatchObject({ currency: 'EUR' });
  });

  it('removes a member after a preview saying where their subscriptions go, and Undo brings them back', async () => {
    const luis = await h.addMember('Luis');
    await h.core.invoke('create_subscription', luis, {
      name: 'Gym',
      amount: '30',
      currency: 'EUR',
    });
    const chat = new ChatDriver(h.core, h.owner);
    const list = await chat.say('/members');
    expect(text(list)).toContain('• Ana (owner)');
    const preview = await chat.press('Remove Luis');
    expect(text(preview)).toContain('Their 1 subscriptions move to you');
    expect(await h.db.knex('members')).toHaveLength(2);
    await chat.press('Confirm');
    expect(await h.db.knex('members').pluck('name')).toEqual(['Ana']);
    expect(await h.db.knex('subscriptions').first('member_id')).toEqual({ member_id: h.ownerId });
    await chat.press('Undo');
    expect(await h.db.knex('members')).toHaveLength(2);
  });

  it('revokes an agent token after a preview, with Undo', async () => {
    await h.core.invoke('create_token', h.owner, { name: 'Claude', scope: 'read' });
    const chat = new ChatDriver(h.core, h.owner);
    expect(text(await chat.say('/tokens'))).toContain('• Claude · read');
    await chat.press('Revoke Claude');
    await chat.press('Confirm');
    expect(await h.db.knex('tokens').whereNotNull('revoked_at')).toHaveLength(1);
    await chat.press('Undo');
    expect(await h.db.knex('tokens').whereNotNull('revoked_at')).toHaveLength(0);
  });
});
