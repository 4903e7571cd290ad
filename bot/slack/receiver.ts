import { parse as parseQuery } from 'node:querystring';

import type { App, Receiver, ReceiverEvent } from '@slack/bolt';
import { isValidSlackRequest } from '@slack/bolt';
import { Hono } from 'hono';

import type { EdgeEnv, RouteGroup } from '../http/app.ts';

/** Slack retries a request that was not acknowledged within 3 s; Exhale acknowledges before that. */
export const ACK_WITHIN_MS = 2_500;

import { EVENTS_PATH } from './paths.ts';

/** How far a request's timestamp may be from now, either way (Slack's five minutes). */
const MAX_SKEW_MS = 5 * 60_000;

export { EVENTS_PATH };

export interface EdgeReceiverOptions {
  signingSecret: string;
  log: (message: string, error?: unknown) => void;
  /** The clock signatures are checked against (tests move it). */
  now?: () => number;
}

type Body = Record<string, unknown>;

function parseBody(text: string, contentType: string): Body | null {
  try {
    if (contentType.includes('application/x-www-form-urlencoded')) {
      const fields = parseQuery(text);
      // Interactivity posts `payload=<json>`; a slash command posts its fields as they are.
      if (typeof fields.payload === 'string') return JSON.parse(fields.payload) as Body;
      return Object.fromEntries(
        Object.entries(fields).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]),
      );
    }
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Body) : null;
  } catch {
    return null;
  }
}

/** What Bolt's `ack(response)` answers: nothing, a text (a slash command's reply) or JSON. */
function ackResponse(response: unknown): Response {
  if (response === undefined || response === null || response === '')
    return new Response(null, { status: 200 });
  if (typeof response === 'string')
    return new Response(response, { status: 200, headers: { 'content-type': 'text/plain' } });
  return Response.json(response);
}

/**
 * Bolt driven from a route of Exhale's HTTP edge instead of a server of its own: one URL for
 * events, interactivity and slash commands, as Slack's HTTP mode expects.
 *
 * Every request is checked first: a missing, wrong or older-than-five-minutes signature answers
 * 401 and nothing is processed (`ssl_check` pings aside, which carry no payload). A signed request
 * is handed to Bolt, and the route answers as soon as a listener acknowledges (or after
 * `ACK_WITHIN_MS` at the latest, so Slack never retries a slow one); the work goes on after the
 * answer. `url_verification` is answered with its challenge.
 */
export class EdgeReceiver implements Receiver {
  private app: App | null = null;
  /** Events still being worked on after their ack; `stop` waits for them. */
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly options: EdgeReceiverOptions) {}

  init(app: App): void {
    this.app = app;
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  /** Waits for the work of events already acknowledged (a graceful stop finishes them). */
  async stop(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  routes(): RouteGroup {
    const group = new Hono<EdgeEnv>();
    group.post('/', async (c) => {
      const text = await c.req.raw.text();
      const contentType = c.req.header('content-type') ?? '';
      if (
        contentType.includes('application/x-www-form-urlencoded') &&
        parseQuery(text).ssl_check === '1'
      )
        return c.body(null, 200);
      const signature = c.req.header('x-slack-signature') ?? '';
      const timestamp = Number(c.req.header('x-slack-request-timestamp') ?? 'NaN');
      const now = (this.options.now ?? Date.now)();
      // Bolt's check refuses a timestamp over five minutes old; one as far ahead is refused too
      // (Slack's advice: a signed request replayed later must not pass by claiming the future).
      const valid =
        signature.length > 0 &&
        Number.isFinite(timestamp) &&
        timestamp * 1000 <= now + MAX_SKEW_MS &&
        isValidSlackRequest({
          signingSecret: this.options.signingSecret,
          body: text,
          headers: { 'x-slack-signature': signature, 'x-slack-request-timestamp': timestamp },
          nowMilliseconds: now,
        });
      if (!valid) {
        c.var.log('slack: a request without a valid signature was refused (401)');
        return c.json({ error: 'unauthorized' }, 401);
      }
      const body = parseBody(text, contentType);
      if (!body) return c.json({ error: 'invalid_input' }, 400);
      if (body.type === 'url_verification') return c.json({ challenge: body.challenge });
      return this.dispatch(
        body,
        c.req.header('x-slack-retry-num'),
        c.req.header('x-slack-retry-reason'),
      );
    });
    return group;
  }

  /** Hands one verified request to Bolt; resolves with the acknowledgement Slack gets. */
  dispatch(body: Body, retryNum?: string, retryReason?: string): Promise<Response> {
    const app = this.app;
    if (!app) return Promise.resolve(new Response(null, { status: 503 }));
    return new Promise<Response>((resolve) => {
      let answered = false;
      const answer = (response: Response): void => {
        if (answered) return;
        answered = true;
        clearTimeout(timer);
        resolve(response);
      };
      const timer = setTimeout(() => answer(new Response(null, { status: 200 })), ACK_WITHIN_MS);
      const event: ReceiverEvent = {
        body,
        ...(retryNum !== undefined ? { retryNum: Number(retryNum) } : {}),
        ...(retryReason !== undefined ? { retryReason } : {}),
        ack: (response?: unknown) => {
          answer(ackResponse(response));
          return Promise.resolve();
        },
      };
      const work = app.processEvent(event).then(
        // A request no listener acknowledged (an event Exhale does not handle) is still answered.
        () => answer(new Response(null, { status: 200 })),
        (error: unknown) => {
          this.options.log('slack: an event failed', error);
          answer(new Response(null, { status: 200 }));
        },
      );
      this.inFlight.add(work);
      void work.finally(() => this.inFlight.delete(work));
    });
  }
}
