import { Hono } from 'hono';
import { z } from 'zod';

import type { EdgeEnv, RouteGroup } from '../../bot/http/app.ts';
import {
  type Core,
  newcomerActor,
  OpError,
  type StartedSession,
  startWebSession,
} from '../../core/index.ts';
import { requireOwnOrigin, setSessionCookie } from './auth.ts';
import { readerOf, setReader } from './respond.ts';

/** What the join route needs from the API. */
export interface JoinOptions {
  core: Core;
  /** Origins the app's page may post from besides the request's own (the public URL's). */
  origins: readonly string[];
  /** Whether the session cookie is `Secure` (an https public URL). */
  secure: boolean;
}

const JoinBody = z
  .object({
    // The op judges the code and the name (its sentences, under the name field); these bounds
    // only keep a body from being anything at all.
    code: z.string().max(100),
    name: z.string().max(1000),
    language: z.enum(['en', 'es']).optional(),
  })
  .strict();

/**
 * `POST /api/join { code, name, language? }`: a person with only a browser joins the household of
 * an invite (the invite card's web link opens `/app/join?code=…`, which asks their name and posts
 * here). The op is `join_household`, run as a newcomer on the web surface, so it is audited and
 * refused as anywhere else (an unknown, used or expired code; a name the op refuses, under its
 * field). In the same transaction (`beforeCommit`) a web session starts for the new member, whose
 * cookie the answer sets: the person is signed in, or nothing happened at all. The invite row is
 * read locked by the op, so a code works once even when two browsers, or two processes, post it
 * at the same moment: the second is told the invite is no longer valid.
 */
export function joinRoutes(options: JoinOptions): RouteGroup {
  const { core } = options;
  const group = new Hono<EdgeEnv>();
  group.post('/', async (c) => {
    // It starts a session for the browser that posts: only Exhale's own page may ask.
    requireOwnOrigin(c, options.origins);
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      throw new OpError('invalid_input', 'web.body.json');
    }
    const body = JoinBody.safeParse(raw);
    if (!body.success) throw new OpError('invalid_input', 'web.body.json');
    const language = body.data.language ?? readerOf(c);
    setReader(c, language);
    const code = body.data.code.trim();
    const userAgent = c.req.header('user-agent') ?? null;
    const started: { session?: StartedSession } = {};
    const joined = await core.invoke(
      'join_household',
      newcomerActor('web', language),
      { code, name: body.data.name, language },
      {
        surface: 'web',
        beforeCommit: async (trx) => {
          // The invite the op has just used names the household and the new member.
          const invite = (await trx('invites').where({ code }).first('household_id', 'used_by')) as
            { household_id: string; used_by: string | null } | undefined;
          if (!invite?.used_by) throw new OpError('internal');
          started.session = await startWebSession(trx, {
            id: core.newId('wss'),
            householdId: invite.household_id,
            memberId: invite.used_by,
            userAgent,
            now: core.clock(),
          });
        },
      },
    );
    const { session } = started;
    if (!session) throw new OpError('internal');
    setSessionCookie(c, session, options.secure);
    // The Core here is typed over any catalog, so outputs are unknown: this is the op's schema.
    const output = joined.output as { household: { name: string }; member: { name: string } };
    return c.json({
      joined: true,
      household: output.household.name,
      member: output.member.name,
      expiresAt: session.expiresAt,
    });
  });
  return group;
}
