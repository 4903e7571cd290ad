import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** A random id with a readable prefix, such as `sub_k3x9…`: 16 base-32 characters (80 bits). */
export function randomId(prefix: string): string {
  const bytes = randomBytes(16);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % 32];
  return `${prefix}_${out}`;
}

/** A deterministic generator for tests: `sub_000001`, `sub_000002`…; `mark()` and `rewind(m)` replay a stretch. */
export function sequentialIds(): {
  next: (prefix: string) => string;
  mark: () => number;
  rewind: (mark: number) => void;
} {
  let n = 0;
  return {
    next: (prefix) => `${prefix}_${String((n += 1)).padStart(6, '0')}`,
    mark: () => n,
    rewind: (mark) => {
      n = mark;
    },
  };
}
