import { readFileSync } from 'node:fs';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';
import { type AsHarness, asHarness, pkce, REDIRECT, RESOURCE } from './harness.ts';
import { PNG, startTlsHost, type TlsHost } from './tlsHost.ts';

/**
 * The consent page shows the client's logo inline (a `data:` URI of an image the server fetched
 * and checked), marked unverified unless it comes from a document the client controls, and the
 * monogram when the logo is refused.
 */
describe('the consent page with the client’s logo', () => {
  let tls: TlsHost;
  let h: TestHousehold;
  let as: AsHarness;
  beforeAll(async () => {
    tls = await startTlsHost();
    tls.serve('/logo.png', PNG, { 'content-type': 'image/png' });
    tls.serve('/page.html', '<p>no</p>', { 'content-type': 'text/html' });
  });
  afterAll(async () => tls.close());
  beforeEach(async () => {
    h = await createTestHousehold();
    as = asHarness(h.core, {
      documentFetch: { trustedHosts: ['localhost'], ca: readFileSync(tls.caFile, 'utf8') },
    });
  });
  afterEach(async () => {
    await as.close();
    await h.close();
  });

  async function consent(clientId: string): Promise<string> {
    const query = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      resource: RESOURCE,
    });
    const response = await as.send(`/oauth/authorize?${query.toString()}`);
    expect(response.status).toBe(200);
    return response.text();
  }
  const inlined = `<img class="mono" src="data:image/png;base64,${PNG.toString('base64')}"`;

  it('inlines the logo of a client metadata document, verified', async () => {
    const id = `${tls.url}/client.json`;
    tls.serve(
      '/client.json',
      JSON.stringify({
        client_id: id,
        client_name: 'Doc client',
        redirect_uris: [REDIRECT],
        logo_uri: `${tls.url}/logo.png`,
        token_endpoint_auth_method: 'none',
      }),
    );
    const html = await consent(id);
    expect(html).toContain(inlined);
    expect(html).not.toContain('unverified');
    expect(html).not.toMatch(/src="https?:/);
  });

  it('inlines a registered client’s logo too, and still marks the client unverified', async () => {
    const { client_id } = await as.register({
      client_name: 'Registered',
      logo_uri: `${tls.url}/logo.png`,
    });
    const html = await consent(client_id);
    expect(html).toContain(inlined);
    expect(html).toContain('unverified');
  });

  it('falls back to the monogram for a refused logo', async () => {
    const { client_id } = await as.register({
      client_name: 'Zed',
      logo_uri: `${tls.url}/page.html`,
    });
    const html = await consent(client_id);
    expect(html).not.toContain('<img');
    expect(html).toContain('<span class="mono" aria-hidden="true">Z</span>');
  });
});
