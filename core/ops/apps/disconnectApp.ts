import { z } from 'zod';

import { OpError } from '../../errors/index.ts';
import { defineOp } from '../../kernel/op.ts';
import { household, nowIso } from '../shared/context.ts';
import { Id } from '../../domain/schemas.ts';

interface GrantRow {
  id: string;
  household_id: string;
  member_id: string;
  client_name: string;
  revoked_at: string | null;
}

export const disconnectApp = defineOp({
  name: 'disconnect_app',
  title: 'Disconnect an app',
  description:
    "Disconnects a remote agent (ids from list_connected_apps): every token it holds is refused from its next request on. A member disconnects their own apps; the owner anyone's.",
  input: z.object({ id: Id }),
  output: z.object({ id: Id, client_name: z.string(), disconnected_at: z.string() }),
  effect: 'destructive',
  scope: 'trusted',
  idempotent: true,
  summarize: (_input, output) => ({ client: output.client_name }),
  async run(ctx, input) {
    const query = ctx.tx
      .from('oauth_grants')
      .where({ id: input.id, household_id: household(ctx).id });
    const row = (await ctx.tx.locked(query, 'oauth_grants').first()) as GrantRow | undefined;
    if (!row || (ctx.actor.role !== 'owner' && row.member_id !== ctx.actor.memberId))
      throw new OpError('not_found', 'oauth.not_found.app', { id: input.id });
    if (row.revoked_at !== null)
      return { id: row.id, client_name: row.client_name, disconnected_at: row.revoked_at };
    const at = nowIso(ctx);
    await ctx.tx.update('oauth_grants', row.id, { revoked_at: at });
    return { id: row.id, client_name: row.client_name, disconnected_at: at };
  },
});
