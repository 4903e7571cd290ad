import { createHash } from 'node:crypto';
import { mkdtempSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';
import { serve } from './harness.ts';

const BOOT = "window.__boot = fetch('/api/batch');";
/** A build whose index.html has an inline bootstrap, as miniapp/index.html has, and a large chunk. */
function appWithBootstrap(): { dir: string; chunk: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'exhale-app-speed-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head><script>${BOOT}</script><script type="module" src="/app/assets/main-abc123.js"></script></head><body>v1</body></html>`,
  );
  const chunk = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `row ${i}`))};`;
  writeFileSync(path.join(dir, 'assets', 'main-abc123.js'), chunk);
  return { dir, chunk };
}

describe('/app/: served for a fast first screen', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('allows index.html’s own inline bootstrap by its hash, and no other inline script', async () => {
    const { dir } = appWithBootstrap();
    const s = serve(h.core, { appDir: dir });
    const res = await s.request('/app/');
    const csp = res.headers.get('content-security-policy') ?? '';
    const hash = createHash('sha256').update(BOOT).digest('base64');
    expect(csp).toContain(`script-src 'self' 'sha256-${hash}';`);
    expect(csp.split(';').find((d) => d.includes('script-src'))).not.toContain('unsafe-inline');
    expect(csp).toContain("default-src 'self'");
  });

  it('sends text gzipped to a client that accepts it, the same bytes once unzipped, and plain otherwise', async () => {
    const { dir, chunk } = appWithBootstrap();
    const s = serve(h.core, { appDir: dir });
    const zipped = await s.request('/app/assets/main-abc123.js', {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.headers.get('vary')).toBe('accept-encoding');
    expect(zipped.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const bytes = Buffer.from(await zipped.arrayBuffer());
    expect(bytes.length).toBeLessThan(Buffer.byteLength(chunk) / 3);
    expect(gunzipSync(bytes).toString('utf8')).toBe(chunk);
    const plain = await s.request('/app/assets/main-abc123.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe(chunk);
  });

  it('serves a rebuilt index.html at once (kept in memory only while unchanged on disk)', async () => {
    const { dir } = appWithBootstrap();
    const s = serve(h.core, { appDir: dir });
    expect(await (await s.request('/app/')).text()).toContain('v1');
    const index = path.join(dir, 'index.html');
    writeFileSync(index, '<!doctype html><html><head></head><body>version two</body></html>');
    const later = new Date(Date.now() + 5_000);
    utimesSync(index, later, later);
    const res = await s.request('/app/calendar');
    expect(await res.text()).toContain('version two');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self';");
  });
});
