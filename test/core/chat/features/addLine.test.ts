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

  it('reads currencies and cycles said in words: euros, dollars, mensuales, al mes', async () => {
    const luis = await h.addMember('Luis', 'es');
    const es = new ChatDriver(h.core, luis, { name: 'Luis' });
    expect(text(await es.say('/add Gimnasio 30 euros al mes el día 1'))).toContain(
      '✅ Suscripción añadida: Gimnasio',
    );
    expect(text(await es.say('/add Gas 30 EUR mensuales 3'))).toContain(
      '✅ Suscripción añadida: Gas',
    );
    expect(text(await es.say('/add Agua 20 dólares anuales 7'))).toContain(
      '✅ Suscripción añadida: Agua',
    );
    const en = new ChatDriver(h.core, h.owner);
    // No day said: previewed, in dollars (USD in a household that counts in euros).
    const preview = await en.say('/add ChatGPT Plus 20 dollars a month');
    expect(text(preview)).toContain('Add ChatGPT Plus?');
    expect(text(preview)).toContain('20.00 USD · every month');
    await en.press('Add');
    expect(text(await en.say('/add Times 5 pounds weekly 2'))).toContain('✅ Added Times');
    const rows = await h.db
      .knex('subscriptions')
      .orderBy('name')
      .select('name', 'amount_minor', 'currency', 'cycle_unit', 'first_charge_date');
    expect(rows).toEqual([
      {
        name: 'Agua',
        amount_minor: 2000,
        currency: 'USD',
        cycle_unit: 'year',
        first_charge_date: '2026-03-07',
      },
      {
        name: 'ChatGPT Plus',
        amount_minor: 2000,
        currency: 'USD',
        cycle_unit: 'month',
        first_charge_date: '2026-03-02',
      },
      {
        name: 'Gas',
        amount_minor: 3000,
        currency: 'EUR',
        cycle_unit: 'month',
        first_charge_date: '2026-03-03',
      },
      {
        name: 'Gimnasio',
        amount_minor: 3000,
        currency: 'EUR',
        cycle_unit: 'month',
        first_charge_date: '2026-04-01',
      },
      {
        name: 'Times',
        amount_minor: 500,
        currency: 'GBP',
        cycle_unit: 'week',
        first_charge_date: '2026-03-02',
      },
    ]);
  });

  it('asks which pesos in a household that does not count in them, in both languages', async () => {
    const en = new ChatDriver(h.core, h.owner);
    expect(text(await en.say('/add Spotify 100 pesos monthly 5'))).toMatch(
      /^"pesos" could be several currencies: write its code instead, like MXN, ARS or COP\.\n/,
    );
    const es = new ChatDriver(h.core, await h.addMember('Luis', 'es'), { name: 'Luis' });
    expect(text(await es.say('/add Spotify 100 pesos mensual 5'))).toMatch(
      /^«pesos» puede ser varias monedas: escribe su código, como MXN, ARS o COP\.\n/,
    );
    expect(await subscriptions()).toEqual([]);
  });
});

describe(`/add in a household that counts in pesos (${TEST_DIALECT})`, () => {
  it('reads "dollars" and "pesos" as its own currency, as "$" is', async () => {
    const h = await createTestHousehold({ currency: 'MXN', timeZone: 'America/Mexico_City' });
    try {
      const chat = new ChatDriver(h.core, h.owner);
      expect(text(await chat.say('/add Spotify 129 pesos monthly 5'))).toContain(
        '✅ Added Spotify',
      );
      expect(text(await chat.say('/add Gym 500 dollars monthly 1'))).toContain('✅ Added Gym');
      expect(await h.db.knex('subscriptions').orderBy('name').select('name', 'currency')).toEqual([
        { name: 'Gym', currency: 'MXN' },
        { name: 'Spotify', currency: 'MXN' },
      ]);
    } finally {
      await h.close();
    }
  });
});
