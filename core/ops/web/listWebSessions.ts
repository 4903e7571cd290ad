import { z } from 'zod';

import { defineOp } from '../../kernel/op.ts';
import { Id } from '../../domain/schemas.ts';
import { userAgentNames } from '../../domain/userAgents.ts';
import { household, memberId, nowIso } from '../shared/context.ts';

const WebSession = z.object({
  id: Id,
  created_at: z.string(),
  last_used_at: z.string(),
  expires_at: z.string(),
  user_agent: z.string().nullable().describe('The browser that signed in, as it named itself.'),
  browser: z
    .string()
    .nullable()
    .describe('The browser, as a person names it ("Chrome", "Firefox"), or null when unknown.'),
  os: z
    .string()
    .nullable()
    .describe('The system it runs on ("Linux", "iOS", "Windows"), or null when unknown.'),
});

export const listWebSessions = defineOp({
  name: 'list_web_sessions',
  title: 'List web sessions',
  description:
    "Lists the browsers signed in to Exhale's web app as the caller. End one with end_web_session.",
  input: z.object({}),
  output: z.object({ items: z.array(WebSession) }),
  effect: 'read',
  idempotent: true,
  async run(ctx) {
    const rows = (await ctx.tx
      .from('web_sessions')
      .where({ household_id: household(ctx).id, member_id: memberId(ctx) })
      .whereNull('ended_at')
      .andWhere('expires_at', '>', nowIso(ctx))
      .orderBy('created_at')
      .orderBy('id')
      .select('id', 'created_at', 'last_used_at', 'expires_at', 'user_agent')) as Array<
      Omit<z.infer<typeof WebSession>, 'browser' | 'os'>
    >;
    return { items: rows.map((row) => ({ ...row, ...userAgentNames(row.user_agent) })) };
  },
});
