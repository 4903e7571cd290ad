import { describe, expect, it } from 'vitest';

import { randomId } from '../../../core/kernel/ids.ts';

/** Random ids (core/kernel/ids.ts): drawn from a pool of CSPRNG bytes, each byte used once. */
describe('randomId', () => {
  it('gives a prefix and 16 base-32 characters, never the same id twice across many pool refills', () => {
    const ids = Array.from({ length: 20_000 }, () => randomId('sub'));
    for (const id of ids.slice(0, 100)) expect(id).toMatch(/^sub_[0-9a-hjkmnp-tv-z]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('uses every character of its alphabet about equally (no byte reused or stuck)', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 4_000; i += 1)
      for (const c of randomId('x').slice(2)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(32);
    // 64,000 characters over 32: 2,000 each on average; a broken pool would be far off.
    for (const n of counts.values()) expect(n).toBeGreaterThan(1_600);
  });
});
