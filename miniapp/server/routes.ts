import { Hono } from 'hono';
import { deleteCookie } from 'hono/cookie';
import { renderSVG } from 'uqr';
import { z } from 'zod';

import type { EdgeEnv, RouteGroup } from '../../bot/http/app.ts';
import {
  type Core,
  offeredOn,
  offers,
  OpError,
  pendingChanges,
  type PendingChanges,
  redeemCode,
  SIGN_IN_CODE_LENGTH,
  startWebSession,
  t,
} from '../../core/index.ts';
import { authenticate, type AuthOptions, SESSION_COOKIE, setSessionCookie } from './auth.ts';
import { joinRoutes } from './join.ts';
import { batchRoutes } from './batch.ts';
import { eventStream } from './events.ts';
import { importRoutes } from './imports.ts';
import { meOf } from './me.ts';
import { onApiError, readerOf } from './respond.ts';

/** What the API needs from the process that mounts it. */
export interface MiniAppApiOptions {
  core: Core;
  botToken?: string | undefined;
  /** EXHALE_PUBLIC_URL: the app's links and the origin a cookie's writes come from. */
  publicUrl?: string | undefined;
  /** The bot's @username once Telegram is connected (for t.me links), else null. */
  botUsername?: (() => string | null) | undefined;
  /**
   * Whether Slack is connected, for the invite's instructions. Default: the environment's
   * EXHALE_SLACK_BOT_TOKEN, the variable that connects Slack (bot/channels.ts).
   */
  slack?: (() => boolean) | undefined;
  initDataMaxAgeSeconds?: number | undefined;
  /** How long a prepared change can be confirmed (10 minutes). */
  pendingTtlMs?: number | undefined;
  /** The Ask screen and imports (see chat.ts); absent: those routes answer 503. */
  extra?: ((group: RouteGroup, context: ApiContext) => void) | undefined;
}

/** What the route modules share. */
export interface ApiContext {
  core: Core;
  auth: AuthOptions;
  pending: PendingChanges;
}

const OpBody = z
  .object({
    input: z.unknown().optional(),
    dryRun: z.boolean().optional(),
    prepare: z.boolean().optional(),
  })
  .strict();

/** A JSON body, or `invalid_input` in the reader's language. */
async function jsonBody(c: { req: { json(): Promise<unknown> } }): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new OpError('invalid_input', 'web.body.json');
  }
}

/**
 * The Mini App's API, mounted at `/api`: every op the web surface offers the member as
 * `POST /api/ops/<name>` (generated from the catalog; the kernel applies the web surface's
 * exclusions, the member's role and privacy), confirm sheets through the pending-change service,
 * live changes as server-sent events, QR codes, and sign-in (`/api/session`). No route does what
 * an op does by itself: each calls the op through `core.invoke` with `surface: 'web'`.
 */
export function miniAppApi(options: MiniAppApiOptions): { routes: RouteGroup; close(): void } {
  const { core } = options;
  const origins = options.publicUrl ? [new URL(options.publicUrl).origin] : [];
  const auth: AuthOptions = {
    core,
    botToken: options.botToken,
    initDataMaxAgeSeconds: options.initDataMaxAgeSeconds,
    origins,
  };
  const pending = pendingChanges(core, { surface: 'web', ttlMs: options.pendingTtlMs ?? 600_000 });
  const secure = (options.publicUrl ?? '').startsWith('https://');
  const group = new Hono<EdgeEnv>();
  const streams = new Set<() => void>();
  group.onError(onApiError);
  group.use(async (c, next) => {
    await next();
    // On the answer's own headers, not with c.header(): on an answer already made, that rebuilds
    // it around its body as a stream, which then goes out chunk by chunk (it cost the op route
    // more than its auth and its op together).
    const { headers } = c.res;
    if (!headers.has('cache-control')) headers.set('cache-control', 'no-store');
  });

  group.get('/me', async (c) => c.json(await meOf(c, await authenticate(c, auth), options)));

  group.route('/batch', batchRoutes({ core, auth }, options));

  // Joining from a browser with an invite link: a new member, signed in (join.ts).
  group.route('/join', joinRoutes({ core, origins, secure }));

  // Sign-in: a one-time code (from /web or `exhale web`) becomes a session cookie.
  group.post('/session', async (c) => {
    const body = z.object({ code: z.string().max(100) }).safeParse(await jsonBody(c));
    if (!body.success) throw new OpError('invalid_input', 'web.code.unknown');
    const now = core.clock();
    const userAgent = c.req.header('user-agent') ?? null;
    const redeemed = await redeemCode(core.db, {
      code: body.data.code.trim().toLowerCase(),
      purpose: 'web_sign_in',
      length: SIGN_IN_CODE_LENGTH,
      now,
      then: (trx, code) =>
        startWebSession(trx, {
          id: core.newId('wss'),
          householdId: code.householdId,
          memberId: code.memberId,
          userAgent,
          now,
        }),
    });
    if (!redeemed.ok) {
      const message = t(readerOf(c), `web.code.${redeemed.reason}`);
      return c.json({ error: 'unauthenticated', message, reason: redeemed.reason }, 401);
    }
    setSessionCookie(c, redeemed.value, secure);
    return c.json({ signedIn: true, expiresAt: redeemed.value.expiresAt });
  });

  // Sign-out ends this browser's session through the op (audited, like any other ending).
  group.delete('/session', async (c) => {
    const who = await authenticate(c, auth);
    if (who.sessionId !== null)
      await core.invoke('end_web_session', who.actor, { id: who.sessionId }, { surface: 'web' });
    deleteCookie(c, SESSION_COOKIE, { path: '/', secure });
    return c.json({ signedOut: true });
  });

  group.post('/ops/:name', async (c) => {
    const { actor, fresh } = await authenticate(c, auth);
    const name = c.req.param('name');
    const op = core.catalog.find((o) => o.name === name);
    if (!op) throw new OpError('not_found', 'errors.unknown_op', { name });
    if (!offeredOn(op, 'web'))
      throw new OpError('forbidden', 'errors.not_on_surface', { op: name });
    const parsed = OpBody.safeParse(await jsonBody(c));
    if (!parsed.success) throw new OpError('invalid_input', 'web.body.json');
    const { input = {}, dryRun = false, prepare = false } = parsed.data;
    if (prepare) {
      if (op.effect === 'read') throw new OpError('invalid_input', 'web.not_write', { op: name });
      if (!offers(op, actor, 'web'))
        throw new OpError('forbidden', 'errors.not_on_surface', { op: name });
      const { change, preview } = await pending.prepare(actor, op, input);
      return c.json({
        pending: {
          id: change.id,
          card: { title: preview.card.title, lines: preview.card.lines },
          expiresAt: change.expiresAt,
        },
      });
    }
    const result = await core.invoke(op, actor, input, { surface: 'web', dryRun, fresh });
    return c.json({
      output: result.output,
      auditId: result.auditId,
      changes: result.changes.length,
    });
  });

  // Undo is offered only for a change that can be undone: an op that is `notUndoable` (a
  // sign-out) answers `undo: null`, so the app shows no Undo that would only be refused.
  const undoOf = (opName: string, auditId: string | null): { auditId: string } | null => {
    const op = core.catalog.find((o) => o.name === opName);
    return auditId && op?.notUndoable === undefined ? { auditId } : null;
  };
  group.post('/pending/:id/confirm', async (c) => {
    const { actor } = await authenticate(c, auth);
    const id = c.req.param('id');
    try {
      const applied = await pending.confirm(actor, id);
      const { card, op } = applied.change.payload;
      return c.json({
        output: applied.result.output,
        auditId: applied.result.auditId,
        card: { title: card.title, lines: card.lines },
        undo: undoOf(op, applied.result.auditId),
      });
    } catch (error) {
      // A second confirm (a double tap, another tab, another process) answers what the first did.
      const change = await pending.get(actor, id).catch(() => null);
      if (change?.payload.status !== 'confirmed') throw error;
      const { card, audit_id: auditId, op } = change.payload;
      return c.json({
        output: null,
        auditId,
        card: { title: card.title, lines: card.lines },
        undo: undoOf(op, auditId),
        repeated: true,
      });
    }
  });

  group.post('/pending/:id/discard', async (c) => {
    const { actor } = await authenticate(c, auth);
    await pending.discard(actor, c.req.param('id'));
    return c.json({ discarded: true });
  });

  group.get('/events', async (c) => {
    const { actor } = await authenticate(c, auth, { query: true });
    return eventStream(c, core, actor, streams);
  });

  group.route('/import', importRoutes(core, auth));

  group.get('/qr', async (c) => {
    await authenticate(c, auth);
    const text = c.req.query('text') ?? '';
    if (text === '' || Buffer.byteLength(text, 'utf8') > 1024)
      throw new OpError('invalid_input', 'web.qr.too_long');
    return c.body(renderSVG(text, { border: 2 }), 200, {
      'content-type': 'image/svg+xml; charset=utf-8',
      'cache-control': 'private, max-age=3600',
    });
  });

  options.extra?.(group, { core, auth, pending });
  return {
    routes: group,
    close: () => {
      for (const close of [...streams]) close();
    },
  };
}
