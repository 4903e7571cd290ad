import { z } from 'zod';

import { SCOPES } from '../../../kernel/actor.ts';
import { Id } from '../../../domain/schemas.ts';

/** A token as lists show it: never its hash, never the raw token. */
export const TokenInfo = z.object({
  id: Id,
  name: z.string(),
  scope: z.enum(SCOPES),
  prefix: z
    .string()
    .describe('The start of the token, to tell tokens apart; not enough to use it.'),
  member_id: Id,
  member_name: z.string().nullable(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  expires_at: z
    .string()
    .nullable()
    .describe('When the token stops working (UTC); null when it never expires.'),
});
export type TokenInfo = z.infer<typeof TokenInfo>;

export interface TokenRow {
  id: string;
  household_id: string;
  member_id: string;
  name: string;
  scope: string;
  prefix: string;
  created_at: string;
  revoked_at: string | null;
  expires_at: string | null;
}

export function scopeOf(value: string): (typeof SCOPES)[number] {
  return SCOPES.find((s) => s === value) ?? 'read';
}
