import { describe, expect, it } from 'vitest';
import { z } from 'zod';

import { OpError } from '../../../core/errors/index.ts';
import { parseInput } from '../../../core/kernel/validation.ts';

const Input = z.strictObject({
  name: z.string().trim().min(1).max(5),
  language: z.enum(['en', 'es']),
  days: z.array(z.int().min(0).max(30)).max(2),
  private: z.boolean(),
});

function messages(input: unknown, locale: 'en' | 'es' = 'en'): string[] {
  try {
    parseInput(Input, input, locale);
  } catch (error) {
    if (error instanceof OpError) return error.issues.map((i) => `${i.path}: ${i.message}`);
    throw error;
  }
  return [];
}

describe('input errors people read', () => {
  it('says what is wrong in plain words, not in zod’s', () => {
    expect(messages({ name: '', language: 'fr', days: [1, 2, 3], private: 'yes' })).toEqual([
      "name: Can't be empty.",
      'language: Must be one of: en, es.',
      'days: At most 2 items.',
      'private: Must be true or false.',
    ]);
    expect(messages({ name: 'toolong', language: 'en', days: [31], private: true })).toEqual([
      'name: At most 5 characters.',
      'days.0: Must be at most 30.',
    ]);
    expect(messages({ language: 'en', days: [], private: true })).toEqual([
      'name: Missing: this is required.',
    ]);
  });

  it('in Spanish for a Spanish reader', () => {
    expect(messages({ name: 'a', language: 'it', days: [], private: 1 }, 'es')).toEqual([
      'language: Debe ser uno de: en, es.',
      'private: Debe ser true o false.',
    ]);
  });
});
