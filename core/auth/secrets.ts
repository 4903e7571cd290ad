import { createHash, randomBytes } from 'node:crypto';

/**
 * Secrets Exhale hands out once and keeps only as a SHA-256 (sign-in codes, web session cookies,
 * calendar feed tokens): made of the base-32 alphabet ids use (no i, l, o, u), so they survive
 * being read aloud, typed, or put in a URL without escaping.
 */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** `length` base-32 characters of `bytes` (5 bits each; `bytes` must hold enough). */
function base32(bytes: Uint8Array, length: number): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5 && out.length < length) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  return out;
}

/** The most characters a secret can have: a SHA-256 gives 256 bits, 51 characters. */
export const MAX_SECRET_LENGTH = 51;

/**
 * A secret of `length` characters derived from seed material (for ops: `ctx.newId` values, random
 * in production), so an op's dry run and its real run under the same ids agree, as the kernel
 * promises. `prefix` says what it is (`cal_`); it is not counted in `length`.
 */
export function secretFromSeed(seed: string, length: number, prefix = ''): string {
  if (length < 1 || length > MAX_SECRET_LENGTH) throw new Error(`secret length ${length}`);
  return prefix + base32(createHash('sha256').update(seed, 'utf8').digest(), length);
}

/** A secret of `length` characters from the system's randomness (outside ops: a session cookie). */
export function randomSecret(length: number, prefix = ''): string {
  if (length < 1 || length > MAX_SECRET_LENGTH) throw new Error(`secret length ${length}`);
  return prefix + base32(randomBytes(Math.ceil((length * 5) / 8)), length);
}

/** The SHA-256 of a secret as lower-case hex: the only form stored. */
export function hashSecret(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

/** Whether `raw` could be a secret of this shape (checked before any query). */
export function isSecretShaped(raw: string, length: number, prefix = ''): boolean {
  if (raw.length !== prefix.length + length || !raw.startsWith(prefix)) return false;
  for (const ch of raw.slice(prefix.length)) if (!ALPHABET.includes(ch)) return false;
  return true;
}
