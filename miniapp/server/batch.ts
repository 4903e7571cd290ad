import { Hono } from 'hono';
import { z } from 'zod';

import type { EdgeEnv, RouteGroup } from '../../bot/http/app.ts';
import { type Core, ERROR_CODES, isOpError, offeredOn, OpError } from '../../core/index.ts';
import { authenticate, type AuthOptions } from './auth.ts';
import { meOf, type MeOptions } from './me.ts';
import { apiErrorBody, onApiError, type ApiError } from './respond.ts';

/** The most calls one batch may carry (a screen's reads; more is a client's mistake). */
export const BATCH_MAX_CALLS = 8;

const BatchBody = z
  .object({
    me: z.boolean().optional(),
    calls: z
      .array(z.object({ op: z.string().max(64), input: z.unknown().optional() }).strict())
      .max(BATCH_MAX_CALLS),
  })
  .strict();

type CallAnswer = { output: unknown; auditId: null; changes: 0 } | (ApiError & { status: number });

/**
 * `POST /api/batch { me?, calls: [{ op, input }] }`: several reads in one round trip (the first
 * screen: `/api/me` and the overview's ops at once), authenticated once. Generated over the same
 * catalog and policy as `POST /api/ops/<name>`: each call names an op, which runs through
 * `core.invoke` on the web surface (exclusions, the member's scope and privacy), as if each were
 * sent on its own. Only reads: a write is a change a person confirms on its own, and writes
 * in one request could half succeed. Each call answers alone: `{ output, auditId, changes }` as the
 * op route would, or `{ status, error, message, field?, issues? }` (the status the op route would
 * have answered); the batch itself fails only for who is calling (401, 403) or a malformed body.
 */
export function batchRoutes(
  context: { core: Core; auth: AuthOptions },
  options: MeOptions,
): RouteGroup {
  const { core, auth } = context;
  const group = new Hono<EdgeEnv>();
  group.onError(onApiError);
  group.post('/', async (c) => {
    const who = await authenticate(c, auth);
    let raw: unknown;
    try {
      raw = await c.req.json();
    } catch {
      throw new OpError('invalid_input', 'web.body.json');
    }
    const body = BatchBody.safeParse(raw);
    if (!body.success) throw new OpError('invalid_input', 'webperf.batch.body');
    const answer = async (call: { op: string; input?: unknown }): Promise<CallAnswer> => {
      try {
        const op = core.catalog.find((o) => o.name === call.op);
        if (!op) throw new OpError('not_found', 'errors.unknown_op', { name: call.op });
        if (!offeredOn(op, 'web'))
          throw new OpError('forbidden', 'errors.not_on_surface', { op: call.op });
        if (op.effect !== 'read')
          throw new OpError('invalid_input', 'webperf.batch.read_only', { op: call.op });
        const result = await core.invoke(op, who.actor, call.input ?? {}, {
          surface: 'web',
          fresh: who.fresh,
        });
        return { output: result.output, auditId: null, changes: 0 };
      } catch (error) {
        // Unknown failures fail the batch (500, logged once), as they would the op's own route.
        if (!isOpError(error) || error.code === 'internal') throw error;
        return { status: ERROR_CODES[error.code].http, ...apiErrorBody(error, who.actor.locale) };
      }
    };
    // Reads outside any transaction: on PostgreSQL they run on several connections at once.
    const [me, results] = await Promise.all([
      body.data.me === true ? meOf(c, who, options) : undefined,
      Promise.all(body.data.calls.map(answer)),
    ]);
    return c.json(me === undefined ? { results } : { me, results });
  });
  return group;
}
