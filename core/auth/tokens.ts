import { createHash, randomBytes } from 'node:crypto';

/** Crockford-style base-32 alphabet, the one ids use: no i, l, o, u (easy to read aloud and copy). */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** Every raw token: `exh_` and 32 base-32 characters (160 random bits). */
export const TOKEN_PATTERN = /^exh_[0-9abcdefghjkmnpqrstvwxyz]{32}$/;

/** How many characters of a raw token are kept for display (`exh_` and the next six). */
const PREFIX_LENGTH = 10;

/** 20 bytes as 32 base-32 characters. */
function base32(bytes: Uint8Array): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return out;
}

/** A new raw token from the system's randomness. It is shown once; only its hash and prefix are stored. */
export function generateToken(): string {
  return `exh_${base32(randomBytes(20))}`;
}

/**
 * A raw token derived from secret seed material (for ops: two `ctx.newId` values, 160 random bits in
 * production), so a dry run and the real run under the same ids agree, as the kernel promises.
 */
export function tokenFromSeed(seed: string): string {
  return `exh_${base32(createHash('sha256').update(seed, 'utf8').digest().subarray(0, 20))}`;
}

/** The SHA-256 of a raw token as lower-case hex: what `tokens.hash` holds. */
export function hashToken(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

/** The short, non-secret start of a token that lists show so a person can tell tokens apart. */
export function tokenPrefix(raw: string): string {
  return raw.slice(0, PREFIX_LENGTH);
}

export function isTokenShaped(raw: string): boolean {
  return TOKEN_PATTERN.test(raw);
}
