import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A random id with a readable prefix, such as `sub_k3x9…`: 16 base-32 characters (80 bits). */
export function randomId(prefix: string): string {
  const bytes = randomBytes(16);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % 32];
  return `${prefix}_${out}`;
}

/** A deterministic generator for tests: `sub_0001`, `sub_0002`… reset with `reset()`. */
export function sequentialIds(): { next: (prefix: string) => string; reset: () => void } {
  let n = 0;
  return {
    next: (prefix) => `${prefix}_${String((n += 1)).padStart(6, '0')}`,
    reset: () => {
      n = 0;
    },
  };
}
