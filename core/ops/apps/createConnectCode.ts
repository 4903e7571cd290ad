import { z } from 'zod';

import { issueCode } from '../../auth/oneTimeCodes.ts';
import {
  CONNECT_CODE_LENGTH,
  CONNECT_CODE_TTL_MS,
  displayConnectCode,
} from '../../auth/oauth/connectCodes.ts';
import { defineOp } from '../../kernel/op.ts';

export const createConnectCode = defineOp({
  name: 'create_connect_code',
  title: 'Create a connect code',
  description:
    "Creates the code a person types on Exhale's consent page to connect a remote agent (Claude.ai, ChatGPT, Claude Desktop…) to their account: 8 characters, valid 10 minutes, used once, bound to the caller. Only its hash is stored.",
  input: z.object({}),
  output: z.object({
    code: z.string().describe('The code as the person reads it (XXXX-XXXX), shown this once.'),
    expires_at: z.string(),
  }),
  effect: 'write',
  scope: 'trusted',
  exclude: {
    mcp: 'A connect code lets an app act for the person: only the person asks for one, never an agent.',
    assistant:
      'A connect code lets an app act for the person: only the person asks for one, never the assistant.',
  },
  async run(ctx) {
    const issued = await issueCode(ctx, {
      purpose: 'connect',
      length: CONNECT_CODE_LENGTH,
      ttlMs: CONNECT_CODE_TTL_MS,
    });
    return { code: displayConnectCode(issued.code), expires_at: issued.expiresAt };
  },
});
