import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ChatEngine, type Conversation, type IncomingFile } from '../../../../core/chat/index.ts';
import { Core } from '../../../../core/kernel/core.ts';
import type { AnyOp } from '../../../../core/kernel/op.ts';
import { catalog } from '../../../../core/ops/catalog.ts';
import { importCandidates } from '../../../../core/ops/statements/importCandidates.ts';
import {
  createTestHousehold,
  TEST_DIALECT,
  type TestHousehold,
} from '../../../helpers/testCore.ts';
import { csv, FOUR_MONTHS, FOUR_MONTHS_ROWS } from '../../ops/statements/statement.ts';
import { RecordingChannel } from '../recordingChannel.ts';

const text = RecordingChannel.text;
const payload = RecordingChannel.payload;

const fileOf = (content: string, name = 'card.csv'): IncomingFile => ({
  name,
  mediaType: 'text/csv',
  size: Buffer.byteLength(content),
  download: () => Promise.resolve(Buffer.from(content)),
});

/** Twelve months of twenty monthly merchants: more candidates than one page of the card holds. */
function manyMerchants(): string {
  const rows: Array<[string, string, string]> = [];
  const merchants =
    'ALPHA BRAVO CHARLIE DELTA ECHO FOXTROT GOLF HOTEL INDIA JULIET KILO LIMA'.split(' ');
  for (const [i, m] of merchants.entries())
    for (let month = 1; month <= 6; month++)
      rows.push([
        `2025-${String(month).padStart(2, '0')}-${String(i + 1).padStart(2, '0')}`,
        `${m} STREAMING`,
        `-${i + 5}.00`,
      ]);
  return csv(rows);
}

describe(`the statement review in chat (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  let channel: RecordingChannel;
  let owner: Conversation;
  beforeEach(async () => {
    h = await createTestHousehold();
    channel = new RecordingChannel();
    owner = {
      who: { channel: 'terminal', externalId: null, displayName: 'Ana', actor: h.owner },
      where: { kind: 'private', chatId: 'c' },
    };
  });
  afterEach(async () => h.close());

  const sendFile = (engine: ChatEngine, file: IncomingFile) =>
    engine.handle(owner, { kind: 'file', file, caption: '' }, channel);
  const press = (engine: ChatEngine, p: string) =>
    engine.handle(
      owner,
      { kind: 'press', payload: p, message: { chatId: 'c', messageId: '0' } },
      channel,
    );

  it("names the tracked subscription a price change updates, and leaves another name's unticked", async () => {
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Spotify Family',
      amount: '17.99',
      first_charge_date: '2024-01-05',
    });
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
      first_charge_date: '2024-05-03',
    });
    const engine = new ChatEngine({ core: h.core });
    await sendFile(engine, fileOf(FOUR_MONTHS));
    const labels = (channel.messages[0]!.buttons ?? []).flat().map((b) => b.label);
    // The statement's SPOTIFY at 10.99 against the household's Spotify Family: offered, off.
    expect(labels).toContain(
      '⬜ Spotify · updates Spotify Family: 17.99 EUR → 10.99 EUR every month',
    );
    // Netflix at its own name: its new price is chosen.
    expect(labels).toContain('✅ Netflix · updates Netflix: 15.99 EUR → 17.99 EUR every month');
    expect(labels).toContain('Import 2');
  });

  it('says how many lines of the statement it could not read and left out, in the plural the count needs', async () => {
    const engine = new ChatEngine({ core: h.core });
    const bad: Array<[string, string, string]> = [['2026-02-30', 'SALARY ACME', '+2500.00']];
    await sendFile(engine, fileOf(csv([...FOUR_MONTHS_ROWS, ...bad])));
    expect(text(channel.messages[0]!)).toContain(
      "⚠️ 1 line of the statement couldn't be read and was left out: check it in the statement.",
    );
    await sendFile(engine, fileOf(csv([...FOUR_MONTHS_ROWS, ...bad, ...bad]), 'two.csv'));
    expect(text(channel.last())).toContain('⚠️ 2 lines of the statement couldn');
    await sendFile(engine, fileOf(FOUR_MONTHS, 'clean.csv'));
    expect(text(channel.last())).not.toContain('⚠️');
  });

  it('marks a known service seen once, whose cycle is a guess, and says to check it before importing', async () => {
    const engine = new ChatEngine({ core: h.core });
    const oneMonth = csv([
      ['2026-11-03', 'NETFLIX.COM', '-10.99'],
      ['2026-11-12', 'CORNER CAFE', '-4.50'],
      ['2026-11-20', 'SPOTIFY UK', '-11.99'],
    ]);
    await sendFile(engine, fileOf(oneMonth, 'november.csv'));
    const card = channel.messages[0]!;
    expect(text(card)).toContain(
      '❔ Netflix: seen once; a known subscription service — check its cycle (every month?)',
    );
    expect(text(card)).toContain('❔ Spotify: seen once;');
    const labels = (card.buttons ?? []).flat().map((b) => b.label);
    expect(labels).toContain('✅ Netflix 10.99 EUR · every month ❔');
    // A series seen on its cycle is no guess: no mark, no line.
    await sendFile(engine, fileOf(FOUR_MONTHS));
    expect(text(channel.last())).not.toContain('❔');
    expect((channel.last().buttons ?? []).flat().map((b) => b.label)).toContain(
      '✅ Iron Gym 30.00 EUR · every month',
    );
  });

  it('lists the tracked subscriptions the statement could have charged but did not, in the plural the count needs', async () => {
    const track = (name: string, amount: string, currency: string, every: number, first: string) =>
      h.core.invoke('create_subscription', h.owner, {
        name,
        amount,
        currency,
        cycle: { unit: 'month', every },
        first_charge_date: first,
      });
    await track('Dental plan', '12.00', 'EUR', 1, '2025-06-20');
    await track('Window cleaning', '30.00', 'EUR', 3, '2025-12-01');
    await track('Puregym', '45.00', 'GBP', 1, '2025-06-25');
    const engine = new ChatEngine({ core: h.core });
    await sendFile(engine, fileOf(FOUR_MONTHS));
    const card = text(channel.messages[0]!);
    expect(card).toContain('Tracked, but not charged in this statement:');
    expect(card).toContain('• Dental plan 12.00 EUR (expected 3 times)');
    expect(card).toContain('• Window cleaning 30.00 EUR (expected once)');
    // Pounds on a statement in euros: it could not have been charged here.
    expect(card).not.toContain('Puregym');
  });

  it('pages a long review 8 candidates at a time, keeping the ticks across pages', async () => {
    const engine = new ChatEngine({ core: h.core });
    await sendFile(engine, fileOf(manyMerchants()));
    const first = channel.messages[0]!;
    const toggles = (first.buttons ?? []).flat().filter((b) => /^[✅⬜]/.test(b.label));
    expect(toggles).toHaveLength(8);
    expect(text(first)).toContain('Subscriptions found: 12.');
    await press(engine, payload(first, 'Next'));
    const second = channel.messages[0]!;
    expect((second.buttons ?? []).flat().filter((b) => /^[✅⬜]/.test(b.label))).toHaveLength(4);
    expect((second.buttons ?? []).flat().map((b) => b.label)).toContain('Previous');
    await press(engine, payload(second, 'Lima'));
    expect((channel.messages[0]!.buttons ?? []).flat().map((b) => b.label)).toContain('Import 11');
    await press(engine, payload(channel.messages[0]!, 'Previous'));
    await press(engine, payload(channel.messages[0]!, 'Import 11'));
    expect(text(channel.messages[0]!)).toContain('Imported 11 from card.csv');
    expect(await h.db.knex('subscriptions')).toHaveLength(11);
  });

  it('writes nothing when the import fails mid-way, and the card can be pressed again', async () => {
    let calls = 0;
    // The confirmed run (the second call; the first is the dry run) fails after writing its rows.
    const failing = {
      ...importCandidates,
      async run(...args: Parameters<typeof importCandidates.run>) {
        const out = await importCandidates.run(...args);
        calls += 1;
        if (calls === 2) throw new Error('the disk filled up');
        return out;
      },
    };
    const core = new Core({
      db: h.db,
      // The op's own input type narrows `run`; the catalog holds ops of any input (as engine.test.ts).
      catalog: catalog.map((op): AnyOp => (op.name === failing.name ? (failing as AnyOp) : op)),
      clock: () => new Date(h.clock.now),
    });
    const logged: unknown[] = [];
    const engine = new ChatEngine({ core, log: (_m, e) => logged.push(e) });
    await sendFile(engine, fileOf(FOUR_MONTHS));
    const importButton = payload(channel.messages[0]!, 'Import 3');
    await press(engine, importButton);
    expect(text(channel.last())).toContain('something went wrong on our side');
    expect(logged).toHaveLength(1);
    expect(await h.db.knex('subscriptions')).toEqual([]);
    expect(await h.db.knex('statement_imports')).toEqual([]);
    expect(await h.db.knex('audit_entries').where({ op: 'import_candidates' })).toEqual([]);

    await press(engine, importButton);
    expect(text(channel.messages[0]!)).toContain('Imported 3 from card.csv');
    expect(await h.db.knex('subscriptions')).toHaveLength(3);
  });

  it("refuses another member's review and a review that has expired", async () => {
    const engine = new ChatEngine({ core: h.core });
    await sendFile(engine, fileOf(FOUR_MONTHS));
    const importButton = payload(channel.messages[0]!, 'Import 3');
    const luis = await h.addMember('Luis');
    await engine.handle(
      { ...owner, who: { ...owner.who, displayName: 'Luis', actor: luis } },
      { kind: 'press', payload: importButton, message: null },
      channel,
    );
    expect(channel.notices.at(-1)).toBe('These buttons belong to someone else.');
    h.clock.now = new Date(h.clock.now.getTime() + 25 * 3_600_000);
    await press(engine, importButton);
    expect(text(channel.last())).toContain('This review has expired. Send the statement again.');
    expect(await h.db.knex('subscriptions')).toEqual([]);
  });

  describe('a statement in "$" that could be several dollars', () => {
    // Day-first dates and "$" amounts: nothing says which dollar (the US writes month first).
    const DOLLARS = csv([
      ['15/11/2025', 'NETFLIX.COM 866-579-7172', '-$15.99'],
      ['15/12/2025', 'NETFLIX.COM 866-579-7172', '-$15.99'],
      ['15/01/2026', 'NETFLIX.COM 866-579-7172', '-$15.99'],
      ['16/01/2026', 'TIM HORTONS 0391', '-$4.50'],
      ['15/02/2026', 'NETFLIX.COM 866-579-7172', '-$15.99'],
    ]);

    it("asks which currency with a button each, the household's own first, then reads it in the one pressed and imports it so", async () => {
      // The household (EUR) already pays something in Canadian dollars.
      await h.core.invoke('create_subscription', h.owner, {
        name: 'Crave',
        amount: '9.99',
        currency: 'CAD',
        first_charge_date: '2025-06-10',
      });
      const engine = new ChatEngine({ core: h.core });
      await sendFile(engine, fileOf(DOLLARS, 'dollars.csv'));
      const question = channel.messages[0]!;
      expect(text(question)).toContain('Which currency is it in?');
      const labels = (question.buttons ?? []).flat().map((b) => b.label);
      expect(labels).toEqual(['CAD', 'USD', 'AUD', 'MXN', 'ARS', 'CLP']);
      expect(await h.db.knex('subscriptions')).toHaveLength(1);

      await press(engine, payload(question, 'CAD'));
      const card = channel.messages[0]!;
      expect(text(card)).toContain('📄 dollars.csv');
      const toggles = (card.buttons ?? []).flat().map((b) => b.label);
      expect(toggles).toContain('✅ Netflix 15.99 CAD · every month');
      // An old copy of the question does nothing more.
      await press(engine, payload(question, 'USD'));
      expect((channel.messages[0]!.buttons ?? []).flat().map((b) => b.label)).toEqual(toggles);

      await press(engine, payload(channel.messages[0]!, 'Import 1'));
      expect(text(channel.messages[0]!)).toContain('Imported 1 from dollars.csv');
      const netflix = await h.db.knex('subscriptions').where({ name: 'Netflix' }).first();
      expect(netflix).toMatchObject({ currency: 'CAD', amount_minor: 1599 });
    });

    it('asks in Spanish to a Spanish speaker', async () => {
      const engine = new ChatEngine({ core: h.core });
      const luis = await h.addMember('Luis', 'es');
      const es = { ...owner, who: { ...owner.who, displayName: 'Luis', actor: luis } };
      await engine.handle(es, { kind: 'file', file: fileOf(DOLLARS), caption: '' }, channel);
      expect(text(channel.messages[0]!)).toContain('¿En qué moneda está?');
      expect((channel.messages[0]!.buttons ?? []).flat()[0]?.label).toBe('USD');
    });
  });
});
