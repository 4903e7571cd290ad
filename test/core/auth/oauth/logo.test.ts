import { readFileSync } from 'node:fs';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { DocumentFetchOptions } from '../../../../core/auth/oauth/clientDocument.ts';
import type { OAuthClient } from '../../../../core/auth/oauth/clients.ts';
import { registerClient, storedClient } from '../../../../core/auth/oauth/clients.ts';
import { clientLogo, fetchLogo, LOGO_MAX_BYTES } from '../../../../core/auth/oauth/logo.ts';
import type { Database } from '../../../../core/store/connection.ts';
import {
  openSharedTestDatabase,
  type SharedTestDatabase,
} from '../../../helpers/sharedDatabase.ts';
import { TEST_NOW } from '../../../helpers/testCore.ts';
import { PNG, startTlsHost, type TlsHost } from '../../../mcp/oauth/tlsHost.ts';

const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const SVG =
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><script>alert(1)</script><rect width="4" height="4"/></svg>';

/**
 * The consent page's logo: fetched by the server from `logo_uri` under the same guards as a client
 * metadata document, an image of an allowed type whose bytes match it, at most 64 KiB; kept on the
 * client's row; null (the monogram) for anything refused.
 */
describe('client logos, fetched under SSRF guards', () => {
  let tls: TlsHost;
  let options: DocumentFetchOptions;
  beforeAll(async () => {
    tls = await startTlsHost();
    options = { trustedHosts: ['localhost'], ca: readFileSync(tls.caFile, 'utf8') };
    tls.serve('/logo.png', PNG, { 'content-type': 'image/png' });
    tls.serve('/logo.gif', GIF, { 'content-type': 'image/gif' });
    tls.serve('/logo.svg', SVG, { 'content-type': 'image/svg+xml; charset=utf-8' });
    tls.serve('/page.html', '<html><body>hi</body></html>', { 'content-type': 'text/html' });
    tls.serve('/fake.png', '<html>not a png</html>', { 'content-type': 'image/png' });
    tls.serve('/huge.png', Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES)]), {
      'content-type': 'image/png',
    });
    tls.serve('/slow.png', 'hang');
    tls.serve('/moved.png', '', { location: '/logo.png' }, 302);
  });
  afterAll(async () => tls.close());

  it('inlines an allowed image as a data: URI (png, gif, svg — which an <img> cannot run)', async () => {
    expect(await fetchLogo(`${tls.url}/logo.png`, options)).toBe(
      `data:image/png;base64,${PNG.toString('base64')}`,
    );
    expect(await fetchLogo(`${tls.url}/logo.gif`, options)).toMatch(/^data:image\/gif;base64,/);
    expect(await fetchLogo(`${tls.url}/logo.svg`, options)).toBe(
      `data:image/svg+xml;base64,${Buffer.from(SVG).toString('base64')}`,
    );
  });

  it('refuses what is not an image of its type, too large, too slow, or redirected', async () => {
    for (const file of ['/page.html', '/fake.png', '/huge.png', '/moved.png', '/gone.png'])
      expect(await fetchLogo(`${tls.url}${file}`, options), file).toBeNull();
    // A host that never answers: refused at the time bound (short here; 5 s by default).
    expect(await fetchLogo(`${tls.url}/slow.png`, { ...options, timeoutMs: 300 })).toBeNull();
  });

  it('refuses http, and loopback or private hosts before connecting (no trusted host)', async () => {
    const before = tls.requests.length;
    const strict = { ca: options.ca };
    for (const uri of [
      `http://localhost:${new URL(tls.url).port}/logo.png`,
      `${tls.url}/logo.png`,
      `https://127.0.0.1:${new URL(tls.url).port}/logo.png`,
      'https://10.0.0.1/logo.png',
      'https://[::1]/logo.png',
      'not a url',
    ])
      expect(await fetchLogo(uri, strict), uri).toBeNull();
    expect(tls.requests.length).toBe(before);
  });

  describe('kept with the client', () => {
    let shared: SharedTestDatabase;
    let a: Database;
    let b: Database;
    beforeEach(async () => {
      shared = await openSharedTestDatabase();
      a = shared.open();
      b = shared.open();
    });
    afterEach(async () => shared.close());

    async function client(logo: string): Promise<OAuthClient> {
      const { client_id } = await registerClient(
        a,
        { client_name: 'Logo', redirect_uris: ['https://app.example/cb'], logo_uri: logo },
        TEST_NOW,
      );
      const found = await storedClient(a, String(client_id));
      if (!found) throw new Error('not stored');
      return found;
    }
    const later = (ms: number) => new Date(TEST_NOW.getTime() + ms);

    it('fetches once a day at most, from either process, and again when logo_uri changes', async () => {
      const c = await client(`${tls.url}/logo.png`);
      const count = () => tls.requests.filter((r) => r === '/logo.png').length;
      const start = count();
      // Two processes at once: both answer the logo, the row holds it.
      const [one, two] = await Promise.all([
        clientLogo(a, c, TEST_NOW, options),
        clientLogo(b, c, TEST_NOW, options),
      ]);
      expect(one).toMatch(/^data:image\/png;base64,/);
      expect(two).toBe(one);
      const fetched = count();
      expect(fetched - start).toBeGreaterThanOrEqual(1);
      expect(await clientLogo(b, c, later(60 * 60_000), options)).toBe(one);
      expect(count()).toBe(fetched);
      expect(await clientLogo(a, c, later(25 * 60 * 60_000), options)).toBe(one);
      expect(count()).toBe(fetched + 1);
      const changed = { ...c, logoUri: `${tls.url}/logo.gif` };
      expect(await clientLogo(a, changed, later(25 * 60 * 60_000), options)).toMatch(
        /^data:image\/gif;/,
      );
    });

    it('keeps a refusal for an hour (the monogram), then tries again', async () => {
      const c = await client(`${tls.url}/page.html`);
      const count = () => tls.requests.filter((r) => r === '/page.html').length;
      const start = count();
      expect(await clientLogo(a, c, TEST_NOW, options)).toBeNull();
      expect(await clientLogo(b, c, later(30 * 60_000), options)).toBeNull();
      expect(count()).toBe(start + 1);
      expect(await clientLogo(b, c, later(61 * 60_000), options)).toBeNull();
      expect(count()).toBe(start + 2);
    });

    it('has no logo without logo_uri, and fetches nothing', async () => {
      const c = { ...(await client(`${tls.url}/logo.png`)), logoUri: null };
      const before = tls.requests.length;
      expect(await clientLogo(a, c, TEST_NOW, options)).toBeNull();
      expect(tls.requests.length).toBe(before);
    });
  });
});
