import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { catalogFor, LOCALES } from '../../../core/i18n/index.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import { previewCard } from '../../../core/pending/card.ts';
import type { Change } from '../../../core/store/tracked.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';

describe("a pending change's card", () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  async function cardOf(name: string, input: Record<string, unknown>, locale: 'en' | 'es') {
    const op = h.core.op(name);
    const run = await h.core.invoke(op, { ...h.owner, locale }, input, { dryRun: true });
    return previewCard(h.db.knex, op, run.output, run.changes, locale);
  }

  it('writes amounts, dates and statuses in the reader’s way, in Spanish as in English', async () => {
    const { output } = await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '1234.5',
      first_charge_date: '2026-03-05',
    });
    const es = await cardOf(
      'cancel_subscription',
      { id: output.id, effective_date: '2026-04-05' },
      'es',
    );
    const text = es.lines.join('\n');
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(text).not.toMatch(/\b(active|cancelled)\b/);
    expect(text).toContain('cancelada');
    expect(text).toContain('dom, 5 abr 2026');
    const del = await cardOf('delete_subscription', { id: output.id }, 'es');
    expect(del.lines[0]).toContain('1234,50 EUR');
    const en = await cardOf(
      'cancel_subscription',
      { id: output.id, effective_date: '2026-04-05' },
      'en',
    );
    expect(en.lines.join('\n')).toContain('Sun, 5 Apr 2026');
  });
});

describe('the title of every write op’s card', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  const writeOps = catalog.filter((op) => op.effect !== 'read');
  // What a dry run's output may say a change is about; every op's title reads one of them at most.
  const subject = { name: 'Zeta', client_name: 'Zeta', currency: 'USD', undone: [{}, {}] };

  it('is written in both languages for every op that is not a read', () => {
    expect(writeOps.length).toBeGreaterThan(30);
    for (const op of writeOps)
      for (const locale of LOCALES)
        expect(Object.keys(catalogFor(locale)), `${op.name} in ${locale}`).toContain(
          `assistant.propose.${op.name}`,
        );
  });

  it('never shows the op’s English title to a Spanish reader, whether or not the subject is known', async () => {
    for (const op of writeOps) {
      for (const output of [{}, subject]) {
        const es = await previewCard(h.db.knex, op, output, [], 'es');
        const en = await previewCard(h.db.knex, op, output, [], 'en');
        expect(es.title, op.name).not.toContain(op.title);
        expect(es.title, op.name).toMatch(/^¿.+\?$/);
        expect(es.title, op.name).not.toMatch(/\{\w+\}/);
        expect(en.title, op.name).not.toMatch(/\{\w+\}/);
        expect(es.title, op.name).not.toEqual(en.title);
      }
    }
  });

  it('names the subject when the change has one', async () => {
    const disconnect = h.core.op('disconnect_app');
    const es = await previewCard(h.db.knex, disconnect, { client_name: 'Claude.ai' }, [], 'es');
    expect(es.title).toBe('¿Desconectar Claude.ai?');
    const unnamed = await previewCard(h.db.knex, disconnect, {}, [], 'es');
    expect(unnamed.title).toBe('¿Desconectar una aplicación?');
    const rate = await previewCard(
      h.db.knex,
      h.core.op('set_exchange_rate'),
      { currency: 'USD' },
      [],
      'en',
    );
    expect(rate.title).toBe('Set the USD exchange rate?');
    const undo = h.core.op('undo');
    expect((await previewCard(h.db.knex, undo, { undone: [{}] }, [], 'es')).title).toBe(
      '¿Deshacer este cambio?',
    );
    expect((await previewCard(h.db.knex, undo, { undone: [{}, {}, {}] }, [], 'en')).title).toBe(
      'Undo 3 changes?',
    );
  });
});

describe('the count lines of a card', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  const link = (id: string, added: boolean): Change => {
    const row = { id, subscription_id: 's1', tag_id: id };
    return {
      table: 'subscription_tags',
      id,
      before: added ? null : row,
      after: added ? row : null,
    };
  };

  it('counts records without a name in words, singular and plural, in the reader’s language', async () => {
    const op = h.core.op('update_subscription');
    const changes = [link('a', true), link('b', true), link('c', true), link('d', false)];
    const en = await previewCard(h.db.knex, op, {}, changes, 'en');
    expect(en.lines).toContain('Tag links: 3 added, 1 removed');
    const es = await previewCard(h.db.knex, op, {}, changes, 'es');
    expect(es.lines).toContain('Etiquetas asignadas: 3 altas, 1 baja');
    const one = await previewCard(h.db.knex, op, {}, [link('a', true)], 'es');
    expect(one.lines).toContain('Etiquetas asignadas: 1 alta');
    for (const line of [...en.lines, ...es.lines]) expect(line).not.toMatch(/[+−~]\d/);
  });
});
