import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createWorld, type World } from '../harness.ts';

describe('Telegram: /help before a household, and /add with a price it cannot read', () => {
  let w: World;
  beforeEach(async () => {
    w = await createWorld();
  });
  afterEach(async () => w.close());

  it('answers /help in the private chat of someone without a household with what Exhale is, /start here, and what they can use', async () => {
    await w.start();
    const zoe = w.tg.user(2002, 'Zoe', 'en-US');
    const help = (await w.tg.ask(zoe, '/help')).text ?? '';
    expect(help).toContain("Exhale keeps your household's subscriptions in one place");
    expect(help).toContain("To start, send /start here and I'll set up your household");
    expect(help).toContain('Send /start <code>.');
    expect(help).toMatch(/^\/help — /m);
    expect(help).toMatch(/^\/start — /m);
    expect(help).not.toContain('in a private chat with me');
    expect(help).not.toMatch(/^\/add — /m);
    const luis = w.tg.user(2003, 'Luis', 'es-ES');
    const ayuda = (await w.tg.ask(luis, '/help')).text ?? '';
    expect(ayuda).toContain('Para empezar, envía /start aquí');
    expect(ayuda).toContain('Lo que ya puedes usar:');
    expect(w.logged).toEqual([]);
  });

  it('answers free text from someone without a household with how to start or join, not with an owner’s model', async () => {
    await w.start();
    const zoe = w.tg.user(2002, 'Zoe', 'en-US');
    const hi = (await w.tg.ask(zoe, 'hola')).text ?? '';
    expect(hi).toContain("To start, send /start here and I'll set up your household");
    expect(hi).toContain('Send /start <code>.');
    expect(hi).not.toContain('owner');
    expect(hi).not.toContain('model');
    const luis = w.tg.user(2003, 'Luis', 'es-ES');
    const hola = (await w.tg.ask(luis, 'hola')).text ?? '';
    expect(hola).toContain('Para empezar, envía /start aquí');
    expect(hola).not.toContain('modelo');
    expect(hola).not.toContain('propietari');
    expect(w.logged).toEqual([]);
  });

  it('after setting up, /add Gym twelve EUR monthly asks the price of Gym and adds Gym at 12.50', async () => {
    await w.start();
    const ana = w.tg.user(1001, 'Ana', 'en');
    const welcome = await w.tg.ask(ana, '/start');
    await w.tg.tap(ana, welcome, 'EUR');
    await w.tg.tap(ana, w.tg.message(ana.id, welcome.message_id)!, 'Europe/Madrid');
    expect((await w.tg.ask(ana, '/add Gym twelve EUR monthly')).text).toBe(
      'I couldn\'t read "twelve" as a price. How much does Gym cost each time? Send an amount like 12.99 or 12,99.',
    );
    const preview = await w.tg.ask(ana, '12.50');
    expect(preview.text).toContain('Add Gym?');
    await w.tg.tap(ana, preview, 'Add');
    const db = w.cores[0]!.db.knex;
    expect(await db('subscriptions').select('name', 'amount_minor')).toEqual([
      { name: 'Gym', amount_minor: 1250 },
    ]);
    expect(w.logged).toEqual([]);
  });
});
