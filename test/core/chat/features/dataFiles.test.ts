import { readFileSync } from 'node:fs';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { IncomingFile } from '../../../../core/chat/index.ts';
import {
  createTestHousehold,
  TEST_DIALECT,
  type TestHousehold,
} from '../../../helpers/testCore.ts';
import { FOUR_MONTHS } from '../../ops/statements/statement.ts';
import { ChatDriver } from './chatDriver.ts';

const text = ChatDriver.text;
const WALLOS = readFileSync(
  new URL('../../../fixtures/wallos/subscriptions.json', import.meta.url),
  'utf8',
);

const fileOf = (content: string | Uint8Array, name: string): IncomingFile => {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  return { name, size: bytes.byteLength, download: () => Promise.resolve(bytes) };
};

async function addSubs(h: TestHousehold): Promise<void> {
  for (const [name, amount] of [
    ['Netflix', '15.99'],
    ['Spotify', '10.99'],
  ] as const)
    await h.core.invoke('create_subscription', h.owner, {
      name,
      amount,
      currency: 'EUR',
      cycle: { unit: 'month', every: 1 },
      first_charge_date: '2026-03-10',
      category: 'Streaming',
    });
}

describe(`/export and /import in chat (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  let other: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
    other = await createTestHousehold();
  });
  afterEach(async () => {
    await h.close();
    await other.close();
  });

  it('sends the JSON and the CSV as files that say what they hold', async () => {
    await addSubs(h);
    const chat = new ChatDriver(h.core, h.owner);
    const reply = await chat.say('/export');
    expect(text(reply)).toContain('Your export: 2 subscriptions');
    const [json, csv] = reply.files ?? [];
    expect(json?.name).toBe('exhale-2026-03-02.json');
    expect(json?.mediaType).toBe('application/json');
    const doc = JSON.parse(Buffer.from(json?.bytes ?? []).toString('utf8')) as {
      format: string;
      subscriptions: Array<{ name: string }>;
    };
    expect(doc.format).toBe('exhale/1');
    expect(doc.subscriptions.map((s) => s.name)).toEqual(['Netflix', 'Spotify']);
    expect(csv?.name).toBe('exhale-subscriptions-2026-03-02.csv');
    expect(Buffer.from(csv?.bytes ?? []).toString('utf8')).toContain('Netflix');
  });

  it('imports a sent Exhale export after /import with a preview, then Undo removes what it added', async () => {
    await addSubs(h);
    const exported = (await new ChatDriver(h.core, h.owner).say('/export')).files?.[0];
    if (!exported) throw new Error('no export');
    const chat = new ChatDriver(other.core, other.owner);
    expect(text(await chat.say('/import'))).toContain('Send me the file to import');
    const preview = await chat.send(fileOf(exported.bytes, exported.name));
    expect(text(preview)).toContain('Import 2 subscriptions?');
    expect(text(preview)).toContain('exhale-2026-03-02.json: an Exhale export.');
    expect(text(preview)).toContain('2 subscriptions will be added.');
    expect(await other.db.knex('subscriptions')).toHaveLength(0);
    const done = await chat.press('Confirm');
    expect(text(done)).toContain('Imported');
    const names = () => other.db.knex('subscriptions').orderBy('name').pluck('name');
    expect(await names()).toEqual(['Netflix', 'Spotify']);
    expect(await other.db.knex('categories').pluck('name')).toEqual(['Streaming']);
    expect(await other.db.knex('audit_entries').where({ op: 'import_data' })).toHaveLength(1);
    await chat.press('Undo');
    expect(await names()).toEqual([]);
    expect(await other.db.knex('categories')).toHaveLength(0);
  });

  it('en español: importa un archivo enviado con /import como pie, y lo ya importado se deja fuera', async () => {
    await addSubs(h);
    await other.core.invoke('update_member', other.owner, { id: other.ownerId, language: 'es' });
    const exported = (await new ChatDriver(h.core, h.owner).say('/export')).files?.[0];
    if (!exported) throw new Error('no export');
    const chat = new ChatDriver(other.core, other.owner);
    const preview = await chat.send(fileOf(exported.bytes, 'copia.json'), '/import');
    expect(text(preview)).toContain('¿Importar 2 suscripciones?');
    expect(text(preview)).toContain('Se añadirán 2 suscripciones.');
    await chat.press('Confirmar');
    expect(await other.db.knex('subscriptions')).toHaveLength(2);
    const again = await chat.send(fileOf(exported.bytes, 'copia.json'), '/import');
    expect(text(again)).toContain('2 ya estaban, se dejan fuera.');
    await chat.press('Descartar');
    expect(await other.db.knex('subscriptions')).toHaveLength(2);
  });

  it('imports a Wallos export into a dollar household', async () => {
    const usd = await createTestHousehold({ currency: 'USD' });
    try {
      const chat = new ChatDriver(usd.core, usd.owner);
      const preview = await chat.send(fileOf(WALLOS, 'wallos.json'), '/import');
      expect(text(preview)).toContain('wallos.json: a Wallos export.');
      await chat.press('Confirm');
      expect((await usd.db.knex('subscriptions')).length).toBeGreaterThan(0);
    } finally {
      await usd.close();
    }
  });

  it('sends a bank statement sent after /import to the statement review', async () => {
    const chat = new ChatDriver(h.core, h.owner);
    await chat.say('/import');
    await chat.send(fileOf(FOUR_MONTHS, 'card.csv'));
    expect(text(chat.channel.last())).toContain('Subscriptions found');
    expect(await h.db.knex('subscriptions')).toHaveLength(0);
  });

  it("refuses a broken export in the reader's words and writes nothing", async () => {
    const chat = new ChatDriver(h.core, h.owner);
    const reply = await chat.send(fileOf('{"format":"exhale/1"', 'broken.json'), '/import');
    expect(text(reply)).toMatch(/^⚠️/);
    expect(await h.db.knex('subscriptions')).toHaveLength(0);
    expect(chat.logged).toEqual([]);
  });
});

describe(`/rates in chat (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
    await h.core.invoke('create_subscription', h.owner, {
      name: 'GitHub',
      amount: '4.00',
      currency: 'USD',
      cycle: { unit: 'month', every: 1 },
      first_charge_date: '2026-03-10',
    });
  });
  afterEach(async () => h.close());

  const perEur = async () =>
    (await h.db.knex('fx_rates').where({ currency: 'USD', source: 'manual' })).map((r) =>
      Number((r as { per_eur: number }).per_eur),
    );

  it('lists a currency without a rate and sets one typed as 1 USD = 0.93 EUR, with Undo', async () => {
    const chat = new ChatDriver(h.core, h.owner);
    const list = await chat.say('/rates');
    expect(text(list)).toContain('USD: no rate yet');
    const saved = await chat.say('/rates USD 0.93');
    expect(text(saved)).toContain('Exchange rate saved');
    expect(text(saved)).toContain('1 USD = 0.93 EUR from');
    const [stored] = await perEur();
    expect(stored).toBeCloseTo(1 / 0.93, 4);
    expect(await h.db.knex('audit_entries').where({ op: 'set_exchange_rate' })).toHaveLength(1);
    expect(text(await chat.say('/rates'))).toContain('1 USD = 0.93 EUR (set by hand');
    await chat.press('Undo');
    expect(await perEur()).toEqual([]);
  });

  it('en español: acepta la coma decimal, lo pide con un botón y explica un valor que no es un número', async () => {
    await h.core.invoke('update_member', h.owner, { id: h.ownerId, language: 'es' });
    const chat = new ChatDriver(h.core, h.owner);
    await chat.say('/rates');
    expect(text(await chat.press('Fijar USD'))).toContain('¿Cuánto vale 1 USD en EUR?');
    expect(text(await chat.say('0,93'))).toContain('1 USD = 0,93 EUR desde');
    expect((await perEur())[0]).toBeCloseTo(1 / 0.93, 4);
    expect(text(await chat.say('/rates USD abc'))).toContain('«abc» no es un tipo de cambio');
    expect(text(await chat.say('/rates'))).toContain('1 USD = 0,93 EUR (fijado a mano');
  });

  it('tells a member who is not the owner that only the owner sets rates, and writes nothing', async () => {
    const luis = await h.addMember('Luis');
    const chat = new ChatDriver(h.core, luis, { name: 'Luis' });
    const list = await chat.say('/rates');
    expect((list.buttons ?? []).flat()).toEqual([]);
    expect(text(await chat.say('/rates USD 0.93'))).toContain("Only the household's owner");
    expect(await perEur()).toEqual([]);
  });
});
