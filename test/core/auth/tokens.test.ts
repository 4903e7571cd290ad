import { describe, expect, it } from 'vitest';

import {
  generateToken,
  hashToken,
  isTokenShaped,
  tokenFromSeed,
  tokenPrefix,
} from '../../../core/auth/tokens.ts';

describe('agent tokens', () => {
  it('are exh_ followed by 32 base-32 characters, different every time', () => {
    const tokens = Array.from({ length: 200 }, generateToken);
    for (const token of tokens) expect(token).toMatch(/^exh_[0-9abcdefghjkmnpqrstvwxyz]{32}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
    // 160 random bits: every character position takes many values across tokens.
    for (let i = 4; i < 36; i += 1)
      expect(new Set(tokens.map((t) => t[i])).size).toBeGreaterThan(10);
  });

  it('hash to the SHA-256 hex digest and keep only a short prefix for display', () => {
    expect(hashToken('abc')).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hashToken('exh_abc')).not.toBe(hashToken('exh_abd'));
    const token = generateToken();
    expect(tokenPrefix(token)).toBe(token.slice(0, 10));
  });

  it('derive from seed material as well-formed tokens, the same seed giving the same token', () => {
    const seeds = Array.from({ length: 200 }, (_, i) => `tks_${i}:tks_${i + 1000}`);
    const tokens = seeds.map(tokenFromSeed);
    for (const token of tokens) expect(isTokenShaped(token)).toBe(true);
    expect(new Set(tokens).size).toBe(tokens.length);
    expect(tokenFromSeed('tks_a:tks_b')).toBe(tokenFromSeed('tks_a:tks_b'));
  });

  it('recognises only well-formed tokens', () => {
    expect(isTokenShaped(generateToken())).toBe(true);
    expect(isTokenShaped('exh_short')).toBe(false);
    expect(isTokenShaped(`exh_${'u'.repeat(32)}`)).toBe(false);
    expect(isTokenShaped(`Bearer exh_${'a'.repeat(32)}`)).toBe(false);
  });
});
