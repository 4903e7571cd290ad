import { describe, expect, it } from 'vitest';

import { renderActivity, renderSummary, storedActivity } from '../../../core/i18n/activity.ts';
import { catalogFor, LOCALES } from '../../../core/i18n/index.ts';
import { isWrite } from '../../../core/kernel/op.ts';
import { catalog } from '../../../core/ops/catalog.ts';

describe('activity lines', () => {
  it('has a line of its own for every write op, in every language', () => {
    for (const locale of LOCALES) {
      const keys = Object.keys(catalogFor(locale));
      for (const op of catalog.filter(isWrite)) {
        const own = keys.filter(
          (k) => k === `activity.${op.name}` || k.startsWith(`activity.${op.name}.`),
        );
        expect(own.length, `${locale}: ${op.name}`).toBeGreaterThan(0);
      }
    }
  });

  it('renders the lines an undo names in the same language as the undo', () => {
    const added = { key: 'activity.create_subscription', params: { name: 'Netflix' } };
    const undo = { key: 'activity.undo', items: [added] };
    // A redo names the change itself (the kernel follows the chain of undos down to it).
    const redo = { key: 'activity.undo.redone', items: [added] };
    expect(renderActivity('es', undo)).toBe('Se deshizo: Se añadió Netflix');
    expect(renderActivity('es', redo)).toBe('Se rehízo: Se añadió Netflix');
    expect(renderActivity('en', redo)).toBe('Redone: Added Netflix');
    expect(
      renderActivity('es', {
        key: 'activity.undo',
        items: [added, { key: 'activity.pause_subscription', params: { name: 'Gym' } }],
      }),
    ).toBe('Se deshizo: Se añadió Netflix; Se pausó Gym');
  });

  it('says each count of a line in its own plural form, in every language', () => {
    const line = (count: number, changed: number) => ({
      key: 'activity.import_candidates',
      params: { count, changed, file: 'bank.csv' },
    });
    expect(renderActivity('en', line(1, 1))).toBe(
      'Imported 1 subscription from the statement bank.csv (1 price change)',
    );
    expect(renderActivity('en', line(3, 0))).toBe(
      'Imported 3 subscriptions from the statement bank.csv (no price changes)',
    );
    expect(renderActivity('es', line(1, 2))).toBe(
      'Se importó 1 suscripción del extracto bank.csv (2 cambios de precio)',
    );
    expect(renderActivity('es', line(4, 1))).toBe(
      'Se importaron 4 suscripciones del extracto bank.csv (1 cambio de precio)',
    );
  });

  it('writes an exchange rate with the reader’s decimal mark', () => {
    const rate = {
      key: 'activity.set_exchange_rate',
      params: { currency: 'USD', rate: '1.0705', date: '2026-12-06' },
    };
    expect(renderActivity('es', rate)).toContain('en 1,0705 por EUR');
    expect(renderActivity('en', rate)).toContain('to 1.0705 per EUR');
  });

  it('reads a stored line back from its JSON', () => {
    const text = { key: 'activity.create_category', params: { name: 'Ocio' } };
    const row = { summary: 'Created category Ocio', summary_text: JSON.stringify(text) };
    expect(storedActivity(row)).toEqual(text);
    expect(renderSummary('es', row)).toBe('Se creó la categoría Ocio');
  });

  it('falls back to the stored English words when an entry has no readable text', () => {
    for (const summary_text of [null, 'not json', '{"params":{}}', '{"key":"k","params":{"a":[]}}'])
      expect(renderSummary('es', { summary: 'Added Netflix', summary_text })).toBe('Added Netflix');
  });
});
