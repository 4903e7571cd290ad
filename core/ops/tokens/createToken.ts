import { z } from 'zod';

import { hashToken, tokenFromSeed, tokenPrefix } from '../../auth/tokens.ts';
import { SCOPES } from '../../kernel/actor.ts';
import { defineOp } from '../../kernel/op.ts';
import { household, memberId, nowIso } from '../shared/context.ts';
import { Id, ShortName } from '../../domain/schemas.ts';

export const createToken = defineOp({
  name: 'create_token',
  title: 'Create an agent token',
  description:
    'Creates a token that lets an AI agent (an MCP client such as Claude, Cursor or ChatGPT) act for the caller. Scope read: it only reads. Scope write: it also changes things, and destructive or money-related changes need confirmation. Scope trusted: it changes things without confirmation. The token is returned once and cannot be shown again; only its hash is stored. It works until revoked with revoke_token, or, with expires_in_days, until then (an expired token is refused like a revoked one and removed later).',
  input: z.object({
    name: ShortName.describe('What the token is for, such as "Claude Desktop on my laptop".'),
    scope: z.enum(SCOPES).default('read').describe('read, write or trusted (see the description).'),
    expires_in_days: z
      .int()
      .min(1)
      .max(3650)
      .optional()
      .describe('Days until the token stops working; leave it out for a token that never expires.'),
  }),
  output: z.object({
    id: Id,
    name: z.string(),
    scope: z.enum(SCOPES),
    prefix: z.string(),
    token: z
      .string()
      .describe('The secret token, shown this once. Send it as "Authorization: Bearer <token>".'),
    created_at: z.string(),
    expires_at: z
      .string()
      .nullable()
      .describe('When the token stops working (UTC); null when it never expires.'),
  }),
  effect: 'write',
  scope: 'trusted',
  exclude: {
    mcp: 'Reveals a secret: a new token is a credential, handed out by a person, never by an agent.',
    assistant:
      'Reveals a secret: a new token is a credential, handed out by a person, never by the assistant.',
  },
  summarize: (input) => ({ name: input.name, scope: input.scope }),
  async run(ctx, input) {
    // 160 random bits in production (two random ids); reproducible under a test id generator.
    const raw = tokenFromSeed(`${ctx.newId('tks')}:${ctx.newId('tks')}`);
    const createdAt = nowIso(ctx);
    const id = ctx.newId('tok');
    const expiresAt =
      input.expires_in_days === undefined
        ? null
        : new Date(Date.parse(createdAt) + input.expires_in_days * 86_400_000).toISOString();
    await ctx.tx.insert('tokens', {
      id,
      household_id: household(ctx).id,
      member_id: memberId(ctx),
      name: input.name,
      scope: input.scope,
      hash: hashToken(raw),
      prefix: tokenPrefix(raw),
      created_at: createdAt,
      revoked_at: null,
      expires_at: expiresAt,
    });
    return {
      id,
      name: input.name,
      scope: input.scope,
      prefix: tokenPrefix(raw),
      token: raw,
      created_at: createdAt,
      expires_at: expiresAt,
    };
  },
});
