import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';

import { type Actor, type ChangeEvent, type Core, eventVisibleTo } from '../../core/index.ts';

/** A comment line this often keeps proxies and browsers from closing an idle stream. */
const PING_MS = 25_000;

/**
 * `GET /api/events`: every change committed in the member's household that the member may see,
 * as `event: change` with `{ kind, op, auditId, at }`, from the core's event bus, so whichever
 * process or surface made it (the PostgreSQL bus carries other processes' changes). The app
 * refetches what it shows. Privacy is the core's rule (`eventVisibleTo`), never decided here.
 */
export function eventStream(c: Context, core: Core, actor: Actor, open: Set<() => void>): Response {
  c.header('cache-control', 'no-store');
  c.header('x-accel-buffering', 'no');
  return streamSSE(c, async (stream) => {
    const queue: ChangeEvent[] = [];
    let wake: (() => void) | null = null;
    const unsubscribe = core.bus.subscribe((event) => {
      if (event.kind !== 'changed' || event.householdId !== actor.householdId) return;
      queue.push(event);
      wake?.();
    });
    const ping = setInterval(() => {
      void stream.write(': ping\n\n');
    }, PING_MS);
    ping.unref();
    let closed = false;
    const close = (): void => {
      closed = true;
      wake?.();
    };
    stream.onAbort(close);
    // The server stopping ends every stream, so the requests in flight can finish.
    open.add(close);
    try {
      // The stream is open (and subscribed) once this comment arrives: tests and the app may act.
      await stream.write(': open\n\n');
      while (!closed) {
        const event = queue.shift();
        if (!event) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          wake = null;
          continue;
        }
        if (!(await eventVisibleTo(core.db, event, actor))) continue;
        await stream.writeSSE({
          event: 'change',
          data: JSON.stringify({
            kind: event.kind,
            op: event.op,
            auditId: event.auditId,
            at: new Date().toISOString(),
          }),
        });
      }
    } finally {
      clearInterval(ping);
      unsubscribe();
      open.delete(close);
    }
  });
}
