import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  createTestHousehold,
  TEST_DIALECT,
  type TestHousehold,
} from '../../../helpers/testCore.ts';
import { ChatDriver } from './chatDriver.ts';

const text = ChatDriver.text;

/** /add's one line as people write it: long names, currencies and cycles said in words. */
describe(`/add in one line (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  const subscriptions = () =>
    h.db.knex('subscriptions').orderBy('name').select('name', 'amount_minor', 'currency');

  it('adds a name of up to 120 characters, and says the limit of a longer one', async () => {
    const chat = new ChatDriver(h.core, h.owner);
    const name = `Club ${'x'.repeat(115)}`;
    expect(name).toHaveLength(120);
    expect(text(await chat.say(`/add ${name} 10 EUR monthly 5`))).toContain(`✅ Added ${name}`);
    // The same name again is found, though longer than a search takes.
    expect(text(await chat.say(`/add ${name} 10 EUR monthly 5`))).toContain(
      `ℹ️ You already have ${name}`,
    );
    const long = `Club ${'y'.repeat(121)}`;
    expect(text(await chat.say(`/add ${long} 10 EUR monthly 5`))).toBe(
      'That name is 126 characters long, and a name can have at most 120. Send the line again with a shorter name.',
    );
    expect(text(await chat.say('Gym 30 EUR monthly 1'))).toContain('✅ Added Gym');
    expect(await subscriptions()).toEqual([
      { name, amount_minor: 1000, currency: 'EUR' },
      { name: 'Gym', amount_minor: 3000, currency: 'EUR' },
    ]);
  });

  it('en español: el límite de un nombre demasiado largo', async () => {
    const luis = await h.addMember('Luis', 'es');
    const chat = new ChatDriver(h.core, luis, { name: 'Luis' });
    expect(text(await chat.say(`/add ${'n'.repeat(130)} 10 EUR mensual 5`))).toBe(
      'Ese nombre tiene 130 caracteres y un nombre puede tener como mucho 120. Vuelve a enviar la línea con un nombre más corto.',
    );
  });
});
