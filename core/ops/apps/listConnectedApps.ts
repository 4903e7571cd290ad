import { z } from 'zod';

import { SCOPES } from '../../kernel/actor.ts';
import { defineOp } from '../../kernel/op.ts';
import { household, nowIso } from '../shared/context.ts';
import { Id } from '../../domain/schemas.ts';

export const ConnectedApp = z.object({
  id: Id,
  client_name: z.string(),
  client_id: z.string(),
  scope: z.enum(SCOPES),
  member_id: z.string(),
  connected_at: z.string(),
  last_used_at: z.string().nullable(),
});

interface GrantRow {
  id: string;
  client_name: string;
  client_id: string;
  scope: string;
  member_id: string;
  created_at: string;
  last_used_at: string | null;
}

export const listConnectedApps = defineOp({
  name: 'list_connected_apps',
  title: 'List connected apps',
  description:
    "Lists the remote agents (OAuth apps such as Claude.ai or ChatGPT) connected as the caller, or every member's for the owner. End one with disconnect_app.",
  input: z.object({}),
  output: z.object({ items: z.array(ConnectedApp) }),
  effect: 'read',
  idempotent: true,
  async run(ctx) {
    const now = nowIso(ctx);
    const q = ctx.tx
      .from('oauth_grants')
      .leftJoin('oauth_grant_uses', 'oauth_grant_uses.grant_id', 'oauth_grants.id')
      .where('oauth_grants.household_id', household(ctx).id)
      .whereNull('oauth_grants.revoked_at')
      // Live while it has a token or an unused code that has not ended.
      .where((live) =>
        live
          .whereExists((t) =>
            t
              .select(ctx.tx.trx.raw('1'))
              .from('oauth_tokens')
              .whereRaw('oauth_tokens.grant_id = oauth_grants.id')
              .whereNull('oauth_tokens.revoked_at')
              .where('oauth_tokens.expires_at', '>', now),
          )
          .orWhereExists((c) =>
            c
              .select(ctx.tx.trx.raw('1'))
              .from('oauth_codes')
              .whereRaw('oauth_codes.grant_id = oauth_grants.id')
              .whereNull('oauth_codes.used_at')
              .where('oauth_codes.expires_at', '>', now),
          ),
      );
    if (ctx.actor.role !== 'owner') q.andWhere('oauth_grants.member_id', ctx.actor.memberId ?? '');
    const rows = (await q
      .orderBy('oauth_grants.created_at')
      .orderBy('oauth_grants.id')
      .select(
        'oauth_grants.id',
        'oauth_grants.client_name',
        'oauth_grants.client_id',
        'oauth_grants.scope',
        'oauth_grants.member_id',
        'oauth_grants.created_at',
        'oauth_grant_uses.last_used_at',
      )) as GrantRow[];
    return {
      items: rows.map((row) => ({
        id: row.id,
        client_name: row.client_name,
        client_id: row.client_id,
        scope: SCOPES.find((s) => s === row.scope) ?? 'read',
        member_id: row.member_id,
        connected_at: row.created_at,
        last_used_at: row.last_used_at,
      })),
    };
  },
});
