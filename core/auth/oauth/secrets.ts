import { createHash, randomBytes } from 'node:crypto';

/**
 * Opaque OAuth secrets: a readable kind prefix and 256 random bits (base64url, 43 characters).
 * Only their SHA-256 (lower-case hex) is stored; the raw value is shown once, to the client.
 */
export const SECRET_KINDS = {
  access: 'exa_',
  refresh: 'exr_',
  code: 'exc_',
  client: 'exs_',
} as const;
export type SecretKind = keyof typeof SECRET_KINDS;

const SHAPE = /^ex[arcs]_[A-Za-z0-9_-]{43}$/;

export function newSecret(kind: SecretKind): string {
  return `${SECRET_KINDS[kind]}${randomBytes(32).toString('base64url')}`;
}

export function hashSecret(raw: string): string {
  return createHash('sha256').update(raw, 'utf8').digest('hex');
}

/** Whether `raw` looks like a secret of `kind` (cheap check before any lookup). */
export function isSecretOf(kind: SecretKind, raw: string): boolean {
  return SHAPE.test(raw) && raw.startsWith(SECRET_KINDS[kind]);
}
