import { describe, expect, it } from 'vitest';

import { ERROR_CODES } from '../../../core/errors/index.ts';
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
});
