import { describe, expect, it } from 'vitest';

import { ERROR_CODES, OpError } from '../../../core/errors/index.ts';
import { TRACKED_TABLES } from '../../../core/store/tracked.ts';
import { catalogFor, LOCALES, t } from '../../../core/i18n/index.ts';

describe('texts', () => {
  it('has every English text in Spanish too, with the same placeholders', () => {
    const en = catalogFor('en');
    for (const locale of LOCALES) {
      const other = catalogFor(locale);
      expect(Object.keys(other).sort()).toEqual(Object.keys(en).sort());
      for (const [key, text] of Object.entries(en)) {
        const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
        expect(placeholders(other[key] ?? ''), `${locale}: ${key}`).toEqual(placeholders(text));
      }
    }
  });

  it('has a sentence for every error code', () => {
    for (const code of Object.keys(ERROR_CODES))
      expect(catalogFor('es')[`errors.${code}`], code).toBeTruthy();
  });

  it('fills placeholders', () => {
    expect(t('es', 'errors.insufficient_scope', { scope: 'write' })).toBe(
      'Esto necesita un token con el alcance "write".',
    );
  });

  it("names every kind of record in the reader's words, never by its table", () => {
    for (const locale of LOCALES)
      for (const table of TRACKED_TABLES)
        expect(Object.keys(catalogFor(locale)), `${locale}: ${table}`).toContain(
          `assistant.table.${table}`,
        );
    const refusal = new OpError('conflict', 'errors.undo_conflict', { table: 'invites', name: '' });
    expect(refusal.render('es')).toContain('(Invitación)');
    expect(refusal.render('es')).not.toContain('invites');
  });

  it('says in Spanish until when an invite works without reading "hasta el mar"', () => {
    expect(t('es', 'chat.invite.expires', { date: 'mar, 8 dic 2026' })).toBe(
      'Sirve una vez. Caduca: mar, 8 dic 2026.',
    );
  });
});
