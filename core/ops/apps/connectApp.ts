import { z } from 'zod';

import { SCOPES } from '../../kernel/actor.ts';
import { defineOp } from '../../kernel/op.ts';
import { household, memberId, nowIso } from '../shared/context.ts';
import { Id } from '../../domain/schemas.ts';

export const connectApp = defineOp({
  name: 'connect_app',
  title: 'Connect an app',
  description:
    "Records a person's consent that a remote agent (an OAuth client such as Claude.ai or ChatGPT) may act for them at a scope: the connected app that list_connected_apps shows and disconnect_app ends. Called by Exhale's consent page after the person allowed it; the app then gets its tokens from the authorization server.",
  input: z.object({
    // Not `client_id`: it is the OAuth client's identifier (a URL or a registered id), not an Exhale id.
    client: z.string().min(1).max(2048).describe("The OAuth client's client_id."),
    client_name: z.string().min(1).max(200).describe('The name shown to the person.'),
    scope: z.enum(SCOPES).describe('The scope the person allowed.'),
    resource: z.string().min(1).max(2048).describe('The MCP endpoint the grant is for (RFC 8707).'),
  }),
  output: z.object({
    id: Id,
    client_name: z.string(),
    scope: z.enum(SCOPES),
    connected_at: z.string(),
  }),
  effect: 'write',
  scope: 'trusted',
  exclude: {
    mcp: 'Creating a grant hands out a credential: a person does it on the consent page, never an agent.',
    assistant:
      'Creating a grant hands out a credential: a person does it on the consent page, never the assistant.',
    chat: 'A grant is made on the consent page the app opens, not from a chat.',
    cli: 'A grant is made on the consent page the app opens; `exhale token create` makes a token here.',
  },
  summarize: (input) => ({ client: input.client_name, scope: input.scope }),
  async run(ctx, input) {
    const id = ctx.newId('app');
    const connectedAt = nowIso(ctx);
    await ctx.tx.insert('oauth_grants', {
      id,
      household_id: household(ctx).id,
      member_id: memberId(ctx),
      client_id: input.client,
      client_name: input.client_name,
      scope: input.scope,
      resource: input.resource,
      created_at: connectedAt,
      revoked_at: null,
    });
    return { id, client_name: input.client_name, scope: input.scope, connected_at: connectedAt };
  },
});
