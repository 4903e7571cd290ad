import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createWorld, type World } from '../harness.ts';

describe('Telegram onboarding', () => {
  let w: World;
  beforeEach(async () => {
    w = await createWorld();
  });
  afterEach(async () => w.close());

  it("creates a household on the first /start, asking currency and time zone with buttons, in the user's language", async () => {
    await w.start();
    const ana = w.tg.user(1001, 'Ana', 'es-ES');
    const welcome = await w.tg.ask(ana, '/start');
    expect(welcome.text).toContain('¿En qué moneda pagas?');
    await w.tg.tap(ana, welcome, 'EUR');
    const asked = w.tg.message(ana.id, welcome.message_id);
    expect(asked?.text).toContain('¿En qué zona horaria estás?');
    await w.tg.tap(ana, asked!, 'Europe/Madrid');
    const ready = w.tg.message(ana.id, welcome.message_id);
    expect(ready?.text).toContain('Tu hogar está listo');
    expect(ready?.text).toContain('Casa de Ana');
    const db = w.cores[0]!.db.knex;
    const household = await db('households').first();
    expect(household).toMatchObject({
      name: 'Casa de Ana',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      locale: 'es',
    });
    const member = await db('members').first();
    expect(member).toMatchObject({
      name: 'Ana',
      role: 'owner',
      language: 'es',
    });
    expect(await db('member_identities').select('member_id', 'platform', 'external_id')).toEqual([
      { member_id: member.id, platform: 'telegram', external_id: '1001' },
    ]);
    expect(w.logged).toEqual([]);
  });

  it('shows an /add example in the household’s currency that adds as it is shown, in English and Spanish', async () => {
    await w.start();
    for (const [user, currency, zone] of [
      [w.tg.user(1001, 'Ana', 'en'), 'USD', 'America/New York'],
      [w.tg.user(1002, 'Luis', 'es-ES'), 'EUR', 'Europe/Madrid'],
    ] as const) {
      const welcome = await w.tg.ask(user, '/start');
      await w.tg.tap(user, welcome, currency);
      await w.tg.tap(user, w.tg.message(user.id, welcome.message_id)!, zone);
      const ready = w.tg.message(user.id, welcome.message_id)?.text ?? '';
      const example = ready.split('\n').find((line) => line.startsWith('/add '));
      expect(example).toBe(
        currency === 'USD'
          ? '/add Netflix 15.99 USD monthly 5'
          : '/add Netflix 15,99 EUR mensual 5',
      );
      const added = await w.tg.ask(user, example!);
      expect(added.text).toContain(
        currency === 'USD' ? 'Added Netflix' : 'Suscripción añadida: Netflix',
      );
    }
    expect(
      await w.cores[0]!.db.knex('subscriptions')
        .orderBy('currency')
        .select('currency', 'amount_minor'),
    ).toEqual([
      { currency: 'EUR', amount_minor: 1599 },
      { currency: 'USD', amount_minor: 1599 },
    ]);
  });

  it('takes a typed currency and time zone after "Other…"', async () => {
    await w.start();
    const ana = w.tg.user(1001, 'Ana', 'en');
    const welcome = await w.tg.ask(ana, '/start');
    await w.tg.tap(ana, welcome, 'Other');
    expect(w.tg.message(ana.id, welcome.message_id)?.text).toContain('three-letter currency code');
    const wrong = await w.tg.ask(ana, 'XYZ1');
    expect(wrong.text).toContain("isn't a currency code");
    const zones = await w.tg.ask(ana, 'sek');
    expect(zones.text).toContain('Currency: SEK');
    await w.tg.tap(ana, zones, 'Other');
    const done = await w.tg.ask(ana, 'Europe/Stockholm');
    expect(done.text).toContain('Your household is ready');
    expect(await w.cores[0]!.db.knex('households').first()).toMatchObject({
      currency: 'SEK',
      time_zone: 'Europe/Stockholm',
      locale: 'en',
    });
  });

  it('joins a household through an invite deep link, and registers the commands in English and Spanish', async () => {
    await w.start();
    const ana = w.tg.user(1001, 'Ana', 'en');
    const welcome = await w.tg.ask(ana, '/start');
    await w.tg.tap(ana, welcome, 'EUR');
    await w.tg.tap(ana, w.tg.message(ana.id, welcome.message_id)!, 'Europe/Madrid');
    const invite = await w.tg.ask(ana, '/invite');
    const link = /https:\/\/t\.me\/exhale_test_bot\?start=([A-Za-z0-9_-]+)/.exec(invite.text ?? '');
    expect(link).not.toBeNull();
    const bob = w.tg.user(1002, 'Bob', 'es');
    const joined = await w.tg.ask(bob, `/start ${link![1]}`);
    expect(joined.text).toContain("Te has unido a Ana's home");
    const members = await w.cores[0]!.db.knex('members')
      .orderBy('created_at')
      .orderBy('role', 'desc');
    expect(
      members.map((m: { name: string; role: string; language: string; household_id: string }) => [
        m.name,
        m.role,
        m.language,
      ]),
    ).toEqual([
      ['Ana', 'owner', 'en'],
      ['Bob', 'member', 'es'],
    ]);
    expect(new Set(members.map((m: { household_id: string }) => m.household_id)).size).toBe(1);
    // The invite works once.
    const carol = w.tg.user(1003, 'Carol', 'en');
    const refused = await w.tg.ask(carol, `/start ${link![1]}`);
    expect(refused.text).toContain('invite code is not valid');

    const en = w.tg.commandsFor('all_private_chats', '');
    const es = w.tg.commandsFor('all_private_chats', 'es');
    expect(en.find((c) => c.command === 'add')?.description).toBe('Add a subscription in one line');
    expect(es.find((c) => c.command === 'add')?.description).toBe(
      'Añadir una suscripción en una línea',
    );
    expect(en.map((c) => c.command)).toEqual(
      expect.arrayContaining([
        'start',
        'add',
        'list',
        'upcoming',
        'totals',
        'activity',
        'settings',
        'invite',
        'token',
      ]),
    );
    expect(w.tg.commandsFor('all_group_chats', '').map((c) => c.command)).not.toContain('token');
  });
});
