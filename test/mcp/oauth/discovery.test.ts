import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';
import { type AsHarness, asHarness, BASE } from './harness.ts';

/** The discovery documents name OAuth exactly as the metadata the clients follow does. */
describe('discovery documents and OAuth metadata', () => {
  let h: TestHousehold;
  let as: AsHarness;
  beforeEach(async () => {
    h = await createTestHousehold();
    as = asHarness(h.core);
  });
  afterEach(async () => {
    await as.close();
    await h.close();
  });

  const get = async (path: string) => (await as.send(path)).text();

  it('agree on the issuer, the resource and the metadata URLs', async () => {
    const prmUrl = `${BASE}/.well-known/oauth-protected-resource/mcp`;
    const prm = JSON.parse(await get('/.well-known/oauth-protected-resource/mcp')) as {
      resource: string;
      authorization_servers: string[];
    };
    const asm = JSON.parse(await get('/.well-known/oauth-authorization-server')) as {
      issuer: string;
      registration_endpoint: string;
      revocation_endpoint: string;
    };
    expect(prm.authorization_servers).toEqual([asm.issuer]);

    const card = JSON.parse(await get('/mcp/server-card')) as {
      remotes: Array<{ url: string; authentication: { schemes: string[] } }>;
      _meta: Record<string, unknown>;
    };
    expect(card.remotes[0]?.url).toBe(prm.resource);
    expect(card.remotes[0]?.authentication.schemes).toContain('oauth2');
    expect(card._meta['app.exhale/oauth']).toEqual({
      authorization_server: asm.issuer,
      protected_resource_metadata: prmUrl,
      authorization_server_metadata: `${asm.issuer}/.well-known/oauth-authorization-server`,
    });

    const apiCatalog = await get('/.well-known/api-catalog');
    expect(apiCatalog).toContain(prmUrl);

    const authMd = await get('/auth.md');
    for (const expected of [
      `issuer \`${asm.issuer}\``,
      prmUrl,
      `${asm.issuer}/.well-known/oauth-authorization-server`,
      asm.registration_endpoint,
      asm.revocation_endpoint,
      `\`${prm.resource}\``,
      '/connect',
    ])
      expect(authMd).toContain(expected);

    const llms = await get('/llms.txt');
    expect(llms).toContain(`authorization server ${asm.issuer}`);
    expect(llms).toContain(prmUrl);

    const challenge = (await as.send('/mcp', { method: 'POST' })).headers.get('www-authenticate');
    expect(challenge).toContain(`resource_metadata="${prmUrl}"`);
  });
});
