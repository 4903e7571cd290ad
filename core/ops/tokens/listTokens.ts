import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { household } from '../shared/context.ts';
import { scopeOf, TokenInfo, type TokenRow } from './_lib/view.ts';

export const listTokens = defineOp({
  name: 'list_tokens',
  title: 'List agent tokens',
  description:
    "Lists agent tokens (the caller's, or every member's for the owner), never the token itself.",
  input: z.object({
    include_revoked: z.boolean().default(false),
  }),
  output: z.object({ items: z.array(TokenInfo) }),
  effect: 'read',
  idempotent: true,
  async run(ctx, input) {
    const hh = household(ctx).id;
    const q = ctx.tx
      .from('tokens')
      .leftJoin('token_uses', 'token_uses.token_id', 'tokens.id')
      .leftJoin('members', 'members.id', 'tokens.member_id')
      .where('tokens.household_id', hh);
    if (ctx.actor.role !== 'owner') q.andWhere('tokens.member_id', ctx.actor.memberId ?? '');
    if (!input.include_revoked) q.whereNull('tokens.revoked_at');
    const rows = (await q
      .orderBy('tokens.created_at')
      .orderBy('tokens.id')
      .select(
        'tokens.id',
        'tokens.name',
        'tokens.scope',
        'tokens.prefix',
        'tokens.member_id',
        'tokens.created_at',
        'tokens.revoked_at',
        'tokens.expires_at',
        'token_uses.last_used_at',
        'members.name as member_name',
      )) as Array<
      Omit<TokenRow, 'household_id'> & { last_used_at: string | null; member_name: string | null }
    >;
    return {
      items: rows.map((row) => ({
        id: row.id,
        name: row.name,
        scope: scopeOf(row.scope),
        prefix: row.prefix,
        member_id: row.member_id,
        member_name: row.member_name,
        created_at: row.created_at,
        last_used_at: row.last_used_at,
        revoked_at: row.revoked_at,
        expires_at: row.expires_at,
      })),
    };
  },
});
