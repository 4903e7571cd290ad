import { describe, expect, it } from 'vitest';

import { jsonTextTooDeep, jsonTooDeep, MAX_JSON_DEPTH } from '../../../core/kernel/jsonDepth.ts';
import { createTestHousehold } from '../../helpers/testCore.ts';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('JSON nesting bound', () => {
  it('measures the nesting of a text or a value without recursing, however deep', () => {
    expect(jsonTextTooDeep(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonTextTooDeep(nested(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(jsonTooDeep(JSON.parse(nested(MAX_JSON_DEPTH)))).toBe(false);
    expect(jsonTooDeep(JSON.parse(nested(MAX_JSON_DEPTH + 1)))).toBe(true);
    expect(jsonTooDeep(JSON.parse(nested(200_000)))).toBe(true);
    expect(jsonTextTooDeep(nested(200_000))).toBe(true);
    expect(jsonTooDeep({ a: [{ b: 'x' }], c: 1 }, 3)).toBe(false);
    expect(jsonTooDeep({ a: [{ b: {} }] }, 3)).toBe(true);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ note: '['.repeat(500) + '\\"{{{' });
    expect(jsonTextTooDeep(text)).toBe(false);
  });

  it('refuses an op input nested 5,000 deep with a sentence, in the reader’s language', async () => {
    const h = await createTestHousehold();
    try {
      const deep: unknown = JSON.parse(nested(5_000));
      const error = await h.core
        .invoke(
          'create_subscription',
          { ...h.owner, locale: 'es' },
          { name: 'X', amount: '1', notes: deep },
        )
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'invalid_input', key: 'errors.input.too_deep' });
      expect((error as Error).message).toContain(String(MAX_JSON_DEPTH));
    } finally {
      await h.close();
    }
  });
});
