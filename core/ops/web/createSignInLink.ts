import { z } from 'zod';

import { issueCode } from '../../auth/oneTimeCodes.ts';
import { SIGN_IN_CODE_LENGTH, SIGN_IN_TTL_MS, signInPath } from '../../auth/signIn.ts';
import { defineOp } from '../../kernel/op.ts';

export const createSignInLink = defineOp({
  name: 'create_sign_in_link',
  title: 'Create a web sign-in link',
  description:
    "Creates a link that signs the caller in to Exhale's web app (the Mini App) in a browser, for people outside Telegram or on another device. The link works once and for 10 minutes; opening it starts a web session (listed by list_web_sessions, ended by end_web_session). Returns the link's path (put it after the server's address) and when it expires. Only the code's hash is stored.",
  input: z.object({}),
  output: z.object({
    code: z.string().describe('The one-time code, shown this once.'),
    path: z.string().describe('The link without the server address: /app/signin?code=…'),
    expires_at: z.string(),
  }),
  effect: 'write',
  scope: 'trusted',
  // Audited, but not a household change a person takes back: the link works once and expires in
  // 10 minutes by itself, and the session it starts is ended in Settings. Activity lists it
  // without Undo (one rule: `undo` refuses it on every surface).
  notUndoable: 'webadd.undo_sign_in_link',
  exclude: {
    mcp: "Mints a person's web session: a sign-in is for the person, never for an agent.",
    assistant:
      "Mints a person's web session: a sign-in is for the person, never for the assistant.",
  },
  async run(ctx) {
    const issued = await issueCode(ctx, {
      purpose: 'web_sign_in',
      length: SIGN_IN_CODE_LENGTH,
      ttlMs: SIGN_IN_TTL_MS,
    });
    return { code: issued.code, path: signInPath(issued.code), expires_at: issued.expiresAt };
  },
});
