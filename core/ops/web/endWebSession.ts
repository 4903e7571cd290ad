import { z } from 'zod';

import { OpError } from '../../errors/index.ts';
import { defineOp } from '../../kernel/op.ts';
import { Id } from '../../domain/schemas.ts';
import { browserName } from '../../domain/userAgents.ts';
import { household, memberId, nowIso } from '../shared/context.ts';

export const endWebSession = defineOp({
  name: 'end_web_session',
  title: 'End a web session',
  description:
    "Signs a browser out of Exhale's web app (ids from list_web_sessions); its next request is refused. Not undoable: sign in again with a new link.",
  input: z.object({ id: Id }),
  output: z.object({
    id: Id,
    ended_at: z.string(),
    name: z
      .string()
      .nullable()
      .describe(
        'The browser signed out, as a person names it ("Chrome on Linux"), or null when unknown.',
      ),
  }),
  effect: 'destructive',
  exclude: {
    chat: 'Web sessions are listed and ended in the web app’s settings, where they are seen.',
  },
  scope: 'trusted',
  idempotent: true,
  // Undoing a sign-out would hand a browser back a session its member ended (a stolen laptop).
  notUndoable: 'web.wu.undo_sign_out',
  async run(ctx, input) {
    const query = ctx.tx
      .from('web_sessions')
      .where({ id: input.id, household_id: household(ctx).id, member_id: memberId(ctx) });
    const row = (await ctx.tx.locked(query, 'web_sessions').first()) as
      { id: string; ended_at: string | null; user_agent: string | null } | undefined;
    if (!row) throw new OpError('not_found', 'web.errors.session_not_found', { id: input.id });
    // The confirm card's title names it ("Chrome on Linux: sign out?"), as Settings lists it.
    const name = browserName(ctx.actor.locale, row.user_agent);
    if (row.ended_at !== null) return { id: row.id, ended_at: row.ended_at, name };
    const endedAt = nowIso(ctx);
    await ctx.tx.update('web_sessions', row.id, { ended_at: endedAt });
    return { id: row.id, ended_at: endedAt, name };
  },
});
