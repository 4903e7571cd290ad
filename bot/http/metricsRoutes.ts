import { timingSafeEqual } from 'node:crypto';

import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';

import type { Metrics } from '../metrics.ts';
import type { EdgeEnv, RouteGroup } from './app.ts';

/**
 * `GET /metrics` in Prometheus text format. With `EXHALE_METRICS_TOKEN` set, a scrape must send
 * `Authorization: Bearer <token>`; without one, only a client on this machine (loopback) is
 * answered — behind a reverse proxy on the same machine every request looks local, so set a
 * token there. Anyone else gets 404, as if there were nothing here.
 */
export function metricsRoutes(metrics: Metrics, token: string | undefined): RouteGroup {
  const group = new Hono<EdgeEnv>();
  group.get('/metrics', async (c) => {
    const allowed = token
      ? sameSecret(c.req.header('authorization') ?? '', `Bearer ${token}`)
      : isLoopback(remoteAddress(c));
    if (!allowed) {
      if (token) return c.text('unauthorized\n', 401, { 'WWW-Authenticate': 'Bearer' });
      return c.notFound();
    }
    return c.body(await metrics.render(), 200, { 'Content-Type': metrics.contentType });
  });
  return group;
}

function remoteAddress(c: Parameters<typeof getConnInfo>[0]): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    // Not served by the node server (an in-process fetch in a test): no address to trust.
    return undefined;
  }
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
