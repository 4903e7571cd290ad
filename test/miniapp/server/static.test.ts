import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';
import { serve } from './harness.ts';

describe('/app/: the built Mini App', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('serves index.html for every client route, revalidated, with a strict CSP; /app redirects to /app/', async () => {
    const s = serve(h.core);
    for (const path of [
      '/app/',
      '/app/subscriptions/sub_1',
      '/app/signin?code=abc',
      '/app/calendar',
    ]) {
      const res = await s.request(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await res.text()).toContain('Exhale app');
    }
    const bare = await s.request('/app?startapp=ask');
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/app/?startapp=ask');
  });

  it('serves hashed assets for a year, other files revalidated, and a missing asset as 404, never as HTML', async () => {
    const s = serve(h.core);
    const asset = await s.request('/app/assets/main-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const icon = await s.request('/app/favicon.svg');
    expect(icon.headers.get('cache-control')).toBe('no-cache');
    expect((await s.request('/app/assets/gone-123.js')).status).toBe(404);
    const escape = await s.request('/app/..%2f..%2fpackage.json');
    expect(await escape.text()).not.toContain('"name"');
  });

  it('answers a clear 503 page when the app could not be built, while the API keeps working', async () => {
    const s = serve(h.core, { appDir: '/nonexistent/exhale-app' });
    const res = await s.request('/app/', { headers: { 'accept-language': 'es' } });
    expect(res.status).toBe(503);
    expect(await res.text()).toContain('La web de Exhale no está disponible');
    expect((await s.request('/api/me')).status).toBe(401);
  });
});
