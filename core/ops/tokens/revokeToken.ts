import { z } from 'zod';

import { notFound } from '../../errors/index.ts';
import { defineOp } from '../../kernel/op.ts';
import { nowIso, requireOwned } from '../shared/context.ts';
import { Id } from '../../domain/schemas.ts';
import type { TokenRow } from './_lib/view.ts';

export const revokeToken = defineOp({
  name: 'revoke_token',
  title: 'Revoke an agent token',
  description:
    "Revokes an agent token (ids from list_tokens): it is refused from its next request on. A member revokes their own tokens; the owner anyone's.",
  input: z.object({ id: Id.describe("The token's id (not the token itself).") }),
  output: z.object({ id: Id, name: z.string(), revoked_at: z.string() }),
  effect: 'destructive',
  scope: 'trusted',
  idempotent: true,
  summarize: (_input, output) => ({ name: output.name }),
  async run(ctx, input) {
    const row = await requireOwned<TokenRow>(ctx, 'tokens', 'token', input.id, { forUpdate: true });
    if (ctx.actor.role !== 'owner' && row.member_id !== ctx.actor.memberId)
      throw notFound('token', input.id);
    if (row.revoked_at !== null) return { id: row.id, name: row.name, revoked_at: row.revoked_at };
    const revokedAt = nowIso(ctx);
    await ctx.tx.update('tokens', row.id, { revoked_at: revokedAt });
    return { id: row.id, name: row.name, revoked_at: revokedAt };
  },
});
