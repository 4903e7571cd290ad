import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  createTestHousehold,
  TEST_DIALECT,
  type TestHousehold,
} from '../../../helpers/testCore.ts';
import { ChatDriver } from './chatDriver.ts';

const text = ChatDriver.text;

describe(`/add with a price it cannot read or store (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  const subscriptions = () => h.db.knex('subscriptions').select('name', 'amount_minor');

  it('says which words it could not read as a price, keeps them out of the name, and takes the price next', async () => {
    const chat = new ChatDriver(h.core, h.owner);
    expect(text(await chat.say('/add Gym twelve EUR monthly'))).toBe(
      'I couldn\'t read "twelve" as a price. How much does Gym cost each time? Send an amount like 12.99 or 12,99.',
    );
    const preview = await chat.say('12.50');
    expect(text(preview)).toContain('Add Gym?');
    expect(text(preview)).not.toContain('twelve');
    await chat.press('Add');
    expect(await subscriptions()).toEqual([{ name: 'Gym', amount_minor: 1250 }]);
  });

  it('reads a lower-case word after a capitalised name, before a currency, as the unreadable price', async () => {
    const chat = new ChatDriver(h.core, h.owner);
    expect(text(await chat.say('/add Spotify abc EUR monthly'))).toContain(
      'I couldn\'t read "abc" as a price. How much does Spotify cost',
    );
    expect(text(await chat.say('10,99'))).toContain('Add Spotify?');
  });

  it('keeps a plain name with no price a name, and asks its price as before', async () => {
    const chat = new ChatDriver(h.core, h.owner);
    expect(text(await chat.say('/add Netflix Premium EUR monthly'))).toBe(
      'How much does Netflix Premium cost each time? Send an amount like 15.99.',
    );
    expect(text(await chat.say('/add Disney plus'))).toBe(
      'How much does Disney plus cost each time? Send an amount like 15.99.',
    );
  });

  it('en español: «precio raro» no entra en el nombre', async () => {
    const luis = await h.addMember('Luis', 'es');
    const chat = new ChatDriver(h.core, luis, { name: 'Luis' });
    expect(text(await chat.say('/add HBO precio raro'))).toBe(
      'No pude leer «raro» como precio. ¿Cuánto cuesta HBO cada vez? Envía un importe como 12,99 o 12.99.',
    );
    expect(text(await chat.say('9,99'))).toContain('HBO');
  });

  it('refuses a negative price in one sentence naming what was typed and both ways to write one, then takes a good one', async () => {
    const chat = new ChatDriver(h.core, h.owner);
    const refusal = text(await chat.say('/add Boo -5 EUR monthly'));
    expect(refusal).toBe(
      'I can\'t use "-5" as a price: send an amount of 0 or more, like 12.99 or 12,99.',
    );
    expect(refusal).not.toContain('input');
    expect(text(await chat.say('5'))).toContain('Add Boo?');
    expect(await subscriptions()).toEqual([]);
  });

  it('says the largest price as the person writes money, in English and Spanish', async () => {
    const chat = new ChatDriver(h.core, h.owner);
    expect(text(await chat.say('/add Big 99999999999 EUR monthly'))).toBe(
      '"99999999999" is more than I can keep: a price in EUR can be at most 21,474,836.47 EUR.',
    );
    const luis = await h.addMember('Luis', 'es');
    const es = new ChatDriver(h.core, luis, { name: 'Luis' });
    expect(text(await es.say('/add Big 99999999999999999 EUR mensual'))).toBe(
      '«99999999999999999» es más de lo que puedo guardar: un precio en EUR puede ser como mucho 21.474.836,47 EUR.',
    );
    expect(await subscriptions()).toEqual([]);
  });

  it('answers a bad price typed after the question the same way, and asks again', async () => {
    const chat = new ChatDriver(h.core, h.owner);
    await chat.say('/add Gym');
    expect(text(await chat.say('-3'))).toBe(
      'I can\'t use "-3" as a price: send an amount of 0 or more, like 12.99 or 12,99.',
    );
    expect(text(await chat.say('12.9999'))).toBe(
      'EUR amounts have at most 2 decimals, and "12.9999" has more: send one like 12.99 or 12,99.',
    );
    expect(text(await chat.say('30'))).toContain('Add Gym?');
  });

  it('says a price typed for /edit the same way, leaves the subscription unchanged and asks again', async () => {
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
      currency: 'EUR',
    });
    const chat = new ChatDriver(h.core, h.owner);
    const refusal = text(await chat.say('/edit Netflix price -5'));
    expect(refusal).toContain(
      'I can\'t use "-5" as a price: send an amount of 0 or more, like 12.99 or 12,99.',
    );
    expect(refusal).not.toContain('input');
    expect(await subscriptions()).toEqual([{ name: 'Netflix', amount_minor: 1599 }]);
    expect(text(await chat.say('99999999999'))).toContain('at most 21,474,836.47 EUR');
    expect(await subscriptions()).toEqual([{ name: 'Netflix', amount_minor: 1599 }]);
  });
});
