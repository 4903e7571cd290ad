import { timingSafeEqual } from 'node:crypto';

import { getConnInfo } from '@hono/node-server/conninfo';
import { Hono } from 'hono';

import type { Metrics } from '../metrics.ts';
import type { EdgeEnv, RouteGroup } from './app.ts';

/**
 * `GET /metrics` in Prometheus text format. With `EXHALE_METRICS_TOKEN` set, a scrape must send
 * `Authorization: Bearer <token>`; without one, only a client on this machine (loopback) that
 * came through no proxy is answered: a reverse proxy or tunnel on the same machine (Caddy,
 * cloudflared, Tailscale Funnel) connects from loopback too, but says it forwarded the request
 * (`X-Forwarded-For`, `Forwarded`, …), so the public URL never shows the metrics. Anyone else gets
 * 404, as if there were nothing here.
 */
export function metricsRoutes(metrics: Metrics, token: string | undefined): RouteGroup {
  const group = new Hono<EdgeEnv>();
  group.get('/metrics', async (c) => {
    const allowed = token
      ? sameSecret(c.req.header('authorization') ?? '', `Bearer ${token}`)
      : isLoopback(remoteAddress(c)) && !FORWARDED.some((name) => c.req.header(name) !== undefined);
    if (!allowed) {
      if (token) return c.text('unauthorized\n', 401, { 'WWW-Authenticate': 'Bearer' });
      return c.notFound();
    }
    return c.body(await metrics.render(), 200, { 'Content-Type': metrics.contentType });
  });
  return group;
}

/** Headers a proxy or tunnel adds to what it forwards (Caddy, nginx, cloudflared, Tailscale). */
const FORWARDED = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'cf-connecting-ip'];

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
