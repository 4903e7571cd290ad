import { readFileSync } from 'node:fs';

import { afterEach, describe, expect, it } from 'vitest';

import type { TgMessage, TgUser } from '../../fakes/telegramBotApi.ts';
import { FOUR_MONTHS } from '../../core/ops/statements/statement.ts';
import { createWorld, seedHousehold, type World } from '../harness.ts';

/**
 * Statements to subscriptions in Telegram with no model: the real bot against the fake Bot API,
 * a statement sent as a document, the review card, its toggles, Import and Undo.
 */

const FIXTURES = new URL('../../../../shared/fixtures/bank/csv/', import.meta.url);
const fixture = (name: string): Buffer => readFileSync(new URL(name, FIXTURES));

const labels = (m: TgMessage | undefined): string[] =>
  m?.reply_markup?.inline_keyboard.flat().map((b) => b.text) ?? [];

describe('statements in Telegram', () => {
  let w: World;
  afterEach(async () => w.close());

  /** Sends a file and waits until its progress message has become the result; returns it. */
  async function send(
    user: TgUser,
    data: Buffer | string,
    name = 'statement.csv',
  ): Promise<TgMessage> {
    const before = w.tg.botMessages(user.id).length;
    await w.tg.sendDocument(user, Buffer.from(data), { name, mimeType: 'text/csv' });
    const [progress] = (await w.tg.waitForMessages(user.id, before + 1)).slice(before);
    await w.tg.waitFor(
      (api) => !api.message(user.id, progress!.message_id)?.text?.startsWith('⏳'),
      10_000,
      'the progress message edited into its result',
    );
    return w.tg.message(user.id, progress!.message_id)!;
  }

  const names = async (): Promise<string[]> =>
    (await w.cores[0]!.db.knex('subscriptions').orderBy('name')).map(
      (s: { name: string }) => s.name,
    );
  const imports = async (): Promise<unknown[]> =>
    w.cores[0]!.db.knex('audit_entries').where({ op: 'import_candidates' });

  it('reads a statement, shows a review with toggles, imports the ticked ones once, and undoes them', async () => {
    w = await createWorld();
    const ana = w.tg.user(1001, 'Ana', 'en');
    await seedHousehold(w.cores[0]!, ana);
    await w.start();

    const card = await send(ana, FOUR_MONTHS);
    // Progress first, then the same message edited into the review.
    const progress = w.tg.callsOf('sendMessage').at(-1)!;
    expect(progress.params.text).toBe('⏳ Reading statement.csv…');
    expect(card.text).toContain('📄 statement.csv');
    expect(card.text).toContain('Period: Mon, 3 Nov 2025 – Mon, 16 Feb 2026');
    expect(card.text).toContain('15 transactions, sum');
    expect(card.text).toContain('Subscriptions found: 3.');
    expect(labels(card).sort()).toEqual([
      'Import 3',
      '✅ Iron Gym 30.00 EUR · every month',
      '✅ Netflix 17.99 EUR · every month',
      '✅ Spotify 10.99 EUR · every month',
    ]);
    expect(labels(card).at(-1)).toBe('Import 3');
    // Buttons carry a short reference to a flows row, never the candidates.
    for (const b of card.reply_markup!.inline_keyboard.flat())
      expect(Buffer.byteLength(b.callback_data ?? '')).toBeLessThanOrEqual(64);

    await w.tg.tap(ana, card, 'Spotify');
    const toggled = w.tg.message(ana.id, card.message_id)!;
    expect(labels(toggled)).toContain('⬜ Spotify 10.99 EUR · every month');
    expect(labels(toggled)).toContain('Import 2');

    await w.tg.tap(ana, toggled, 'Import 2');
    const result = w.tg.message(ana.id, card.message_id)!;
    expect(result.text).toContain('✅ Imported 2 from statement.csv');
    expect(result.text).toContain('➕ Netflix 17.99 EUR');
    expect(result.text).toContain('➕ Iron Gym 30.00 EUR');
    expect(labels(result)).toEqual(['↩️ Undo']);
    expect(await names()).toEqual(['Iron Gym', 'Netflix']);
    expect(await imports()).toHaveLength(1);

    // The same file again: the review says when it was imported, and offers no Import; only
    // Reconcile (matching its lines to the charges now tracked).
    const again = await send(ana, FOUR_MONTHS);
    expect(again.text).toContain('This statement was already imported on');
    expect(labels(again)).toEqual(['🔎 Reconcile']);

    await w.tg.tap(ana, result, 'Undo');
    const undone = w.tg.message(ana.id, card.message_id)!;
    expect(undone.text).toContain('Import of statement.csv undone');
    expect(await names()).toEqual([]);
    expect(await w.cores[0]!.db.knex('statement_imports')).toEqual([]);
    expect(w.logged).toEqual([]);
  });

  it('refuses a card made stale by a change since, then applies a double-pressed Import once', async () => {
    w = await createWorld();
    const ana = w.tg.user(1001, 'Ana', 'en');
    const seeded = await seedHousehold(w.cores[0]!, ana);
    await w.start();

    const card = await send(ana, FOUR_MONTHS);
    const shown = structuredClone(card);
    // Netflix is tracked by hand after the card was written, before Import is pressed.
    await w.cores[0]!.invoke('create_subscription', seeded.actor, {
      name: 'Netflix',
      amount: '15.99',
      first_charge_date: '2025-11-03',
    });
    await w.tg.tap(ana, card, 'Import 3');
    const redrawn = w.tg.message(ana.id, card.message_id)!;
    expect(redrawn.text).toContain('Your subscriptions changed since this card was written');
    // The tracked one has the statement's own name: its new price is chosen, and said in full.
    expect(labels(redrawn)).toContain(
      '✅ Netflix · updates Netflix: 15.99 EUR → 17.99 EUR every month',
    );
    expect(await names()).toEqual(['Netflix']);
    expect(await imports()).toHaveLength(0);

    expect(labels(redrawn)).toContain('Import 3');
    // Two presses of Import on the redrawn card (a double tap): one import.
    const data = redrawn.reply_markup!.inline_keyboard.flat().find((b) => b.text === 'Import 3')!;
    const presses = await Promise.all([
      w.tg.pressStale(ana, redrawn, data.callback_data!),
      w.tg.pressStale(ana, redrawn, data.callback_data!),
    ]);
    await w.tg.waitFor(
      (api) => presses.every((p) => api.answered.some((a) => a.id === p.callback_query?.id)),
      10_000,
      'both presses answered',
    );
    expect(await imports()).toHaveLength(1);
    expect(await names()).toEqual(['Iron Gym', 'Netflix', 'Spotify']);
    expect(w.tg.message(ana.id, card.message_id)!.text).toContain('Imported 3 from statement.csv');
    // The old card's Import, pressed from a phone that had not seen the redraw, imports nothing.
    const old = shown.reply_markup!.inline_keyboard.flat().find((b) => b.text === 'Import 3')!;
    const late = await w.tg.pressStale(ana, shown, old.callback_data!);
    await w.tg.waitFor(
      (api) => api.answered.some((a) => a.id === late.callback_query?.id),
      10_000,
      'the late press answered',
    );
    expect(await imports()).toHaveLength(1);
  });

  it('tells an unreadable file and a statement with no subscriptions apart, writing nothing', async () => {
    w = await createWorld();
    const ana = w.tg.user(1001, 'Ana', 'en');
    await seedHousehold(w.cores[0]!, ana);
    await w.start();

    const unreadable = await send(
      ana,
      fixture('bank2ynab-CZ-CeskaSporitelna-TH_20180521-20180523.csv'),
      'vypis.csv',
    );
    expect(unreadable.text).toContain("⚠️ Exhale can't find transactions in this file.");
    expect(unreadable.text).toContain('need the assistant, which is off');
    // Ana owns the household: the one button turns the assistant on (/assistant).
    expect(labels(unreadable)).toEqual(['🤖 Turn the assistant on']);

    const none = await send(ana, fixture('bank2ynab-DE-N26-20171001-20171106.csv'), 'n26.csv');
    expect(none.text).toContain('📄 n26.csv');
    expect(none.text).toContain('No subscriptions found in it.');
    expect(none.text).toContain('no known subscription service appears in it. A longer period');
    expect(labels(none)).toEqual([]);
    expect(await names()).toEqual([]);
    expect(await w.cores[0]!.db.knex('statement_imports')).toEqual([]);
  });

  it('asks which currency a "$" statement with day-first dates is in, then reviews and imports it in the one tapped', async () => {
    w = await createWorld();
    const ana = w.tg.user(1001, 'Ana', 'en');
    await seedHousehold(w.cores[0]!, ana);
    await w.start();
    const dollars = [
      'Date,Description,Amount',
      '15/11/2025,NETFLIX.COM 866-579-7172,-$15.99',
      '15/12/2025,NETFLIX.COM 866-579-7172,-$15.99',
      '15/01/2026,NETFLIX.COM 866-579-7172,-$15.99',
      '15/02/2026,NETFLIX.COM 866-579-7172,-$15.99',
    ].join('\n');
    const question = await send(ana, dollars, 'dollars.csv');
    expect(question.text).toContain('Which currency is it in?');
    expect(labels(question)).toEqual(['USD', 'AUD', 'CAD', 'MXN', 'ARS', 'CLP']);
    expect(await imports()).toEqual([]);

    await w.tg.tap(ana, question, 'AUD');
    const card = w.tg.message(ana.id, question.message_id)!;
    expect(card.text).toContain('4 transactions, sum -63.96 AUD');
    expect(labels(card)).toContain('✅ Netflix 15.99 AUD · every month');
    await w.tg.tap(ana, card, 'Import 1');
    expect(w.tg.message(ana.id, question.message_id)!.text).toContain(
      '✅ Imported 1 from dollars.csv',
    );
    const netflix = await w.cores[0]!.db.knex('subscriptions').first();
    expect(netflix).toMatchObject({ name: 'Netflix', currency: 'AUD', amount_minor: 1599 });
    expect(w.logged).toEqual([]);
  });

  it('refuses a file over 20 MB before downloading it', async () => {
    w = await createWorld();
    const ana = w.tg.user(1001, 'Ana', 'en');
    await seedHousehold(w.cores[0]!, ana);
    await w.start();
    const before = w.tg.botMessages(ana.id).length;
    await w.tg.sendDocument(ana, Buffer.from('date,amount\n'), {
      name: 'huge.csv',
      declaredSize: 21 * 1024 * 1024,
    });
    const [refusal] = (await w.tg.waitForMessages(ana.id, before + 1)).slice(before);
    expect(refusal!.text).toBe(
      '⚠️ The statement is larger than 20 MB, the most Exhale reads. Send a shorter period. Nothing was read.',
    );
    expect(w.tg.callsOf('getFile')).toEqual([]);
  });

  it("speaks the member's language (Spanish)", async () => {
    w = await createWorld();
    const marta = w.tg.user(1003, 'Marta', 'es');
    await seedHousehold(w.cores[0]!, marta, { language: 'es' });
    await w.start();
    const card = await send(marta, FOUR_MONTHS);
    expect(w.tg.callsOf('sendMessage').at(-1)!.params.text).toBe('⏳ Leyendo statement.csv…');
    expect(card.text).toContain('15 movimientos, suma');
    expect(card.text).toContain('Suscripciones encontradas: 3.');
    expect(labels(card)).toContain('✅ Netflix 17,99 EUR · cada mes');
    await w.tg.tap(marta, card, 'Importar 3');
    expect(w.tg.message(marta.id, card.message_id)!.text).toContain(
      'Importadas 3 de statement.csv',
    );
  });

  it('ignores a statement in a group unless the bot is addressed', async () => {
    w = await createWorld();
    const ana = w.tg.user(1001, 'Ana', 'en');
    await seedHousehold(w.cores[0]!, ana);
    await w.start();
    const group = await w.tg.group(-500, 'Home', ana);
    await w.tg.sendDocument(ana, Buffer.from(FOUR_MONTHS), { name: 'statement.csv', chat: group });
    const before = w.tg.botMessages(group.id).length;
    await w.tg.sendText(ana, '/help', group);
    await w.tg.waitForMessages(group.id, before + 1);
    expect(w.tg.callsOf('getFile')).toEqual([]);
  });
});

describe('statements in Telegram, two processes on one database', () => {
  let w: World;
  afterEach(async () => w.close());

  it('answers a review card in process B that process A showed, and imports once', async () => {
    w = await createWorld({ processes: 2 });
    const [a, b] = await w.startBalanced();
    const ana = w.tg.user(1001, 'Ana', 'en');
    await seedHousehold(w.cores[0]!, ana);
    const before = w.tg.botMessages(ana.id).length;
    await w.tg.sendDocument(ana, Buffer.from(FOUR_MONTHS), { name: 'statement.csv' });
    const [progress] = (await w.tg.waitForMessages(ana.id, before + 1)).slice(before);
    await w.tg.waitFor(
      (api) => labels(api.message(ana.id, progress!.message_id)).includes('Import 3'),
      10_000,
      'the review card',
    );
    const card = w.tg.message(ana.id, progress!.message_id)!;
    await w.tg.tap(ana, card, 'Iron Gym');
    await w.tg.tap(ana, w.tg.message(ana.id, card.message_id)!, 'Import 2');
    expect(a!.hits).toBeGreaterThan(0);
    expect(b!.hits).toBeGreaterThan(0);
    expect(w.tg.message(ana.id, card.message_id)!.text).toContain('Imported 2 from statement.csv');
    const subs = await w.cores[1]!.db.knex('subscriptions').orderBy('name');
    expect(subs.map((s: { name: string }) => s.name)).toEqual(['Netflix', 'Spotify']);
    expect(w.logged).toEqual([]);
  });
});
