import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { REFRESH_REUSE_LEEWAY_MS } from '../../../core/auth/oauth/tokens.ts';
import { startWebSession } from '../../../core/auth/webSessions.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';
import { type AsHarness, asHarness, BASE, pkce, REDIRECT, RESOURCE, rpcResult } from './harness.ts';

describe('Exhale as an OAuth 2.1 authorization server', () => {
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

  const count = async (table: string) =>
    Number(((await h.db.knex(table).count({ n: '*' })) as Array<{ n: number | string }>)[0]?.n);

  /** A client connected by Ana, with its first tokens. */
  async function connected(scope = 'read write') {
    const { client_id } = await as.register();
    // The person keeps the highest scope asked (trusted is never preselected: they pick it).
    const { location, verifier } = await as.authorize(client_id, h.owner, {
      scope,
      granted_scope: scope.split(' ').at(-1) ?? scope,
    });
    const code = location.searchParams.get('code') ?? '';
    const response = await as.tokens(client_id, code, verifier);
    expect(response.status).toBe(200);
    const tokens = (await response.json()) as {
      access_token: string;
      refresh_token: string;
      scope: string;
    };
    return { client_id, ...tokens };
  }

  describe('metadata', () => {
    it('serves protected resource metadata at the path-aware URL and the root, naming the issuer', async () => {
      for (const path of [
        '/.well-known/oauth-protected-resource/mcp',
        '/.well-known/oauth-protected-resource',
      ]) {
        const response = await as.send(path);
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({
          resource: RESOURCE,
          authorization_servers: [BASE],
          scopes_supported: ['read', 'write', 'trusted'],
        });
      }
    });

    it('serves RFC 8414 metadata with the issuer exactly as derived, S256 only, iss and CIMD flags', async () => {
      const meta = (await (
        await as.send('/.well-known/oauth-authorization-server')
      ).json()) as Record<string, unknown>;
      expect(meta).toMatchObject({
        issuer: BASE,
        authorization_endpoint: `${BASE}/oauth/authorize`,
        token_endpoint: `${BASE}/oauth/token`,
        registration_endpoint: `${BASE}/oauth/register`,
        revocation_endpoint: `${BASE}/oauth/revoke`,
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
        client_id_metadata_document_supported: true,
        token_endpoint_auth_methods_supported: [
          'none',
          'client_secret_post',
          'client_secret_basic',
        ],
      });
      expect(JSON.stringify(meta)).not.toContain('offline_access');
    });

    it('names itself from X-Forwarded-* only behind a trusted proxy', async () => {
      const { createEdge } = await import('../../../bot/http/app.ts');
      const { oauthRoutes } = await import('../../../mcp/oauth/routes.ts');
      const issuerWith = async (trustProxy: boolean) => {
        const edge = createEdge({ log: () => {} });
        edge.mount(
          '/',
          oauthRoutes({ core: h.core, trustProxy, redeemConnectCode: async () => null }),
        );
        const response = await edge.app.fetch(
          new Request('http://127.0.0.1:8080/.well-known/oauth-authorization-server', {
            headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'exhale.example.com' },
          }),
        );
        return ((await response.json()) as { issuer: string }).issuer;
      };
      expect(await issuerWith(false)).toBe('http://127.0.0.1:8080');
      expect(await issuerWith(true)).toBe('https://exhale.example.com');
    });

    it('takes the last X-Forwarded-Proto/Host, the one the proxy wrote after what the client sent', async () => {
      const { createEdge } = await import('../../../bot/http/app.ts');
      const { oauthRoutes } = await import('../../../mcp/oauth/routes.ts');
      const edge = createEdge({ log: () => {} });
      edge.mount(
        '/',
        oauthRoutes({ core: h.core, trustProxy: true, redeemConnectCode: async () => null }),
      );
      const response = await edge.app.fetch(
        new Request('http://127.0.0.1:8080/.well-known/oauth-authorization-server', {
          headers: {
            'x-forwarded-proto': 'http, https',
            'x-forwarded-host': 'evil.example.com, exhale.example.com',
          },
        }),
      );
      expect(((await response.json()) as { issuer: string }).issuer).toBe(
        'https://exhale.example.com',
      );
    });
  });

  describe('behind a proxy on this machine', () => {
    /** The OAuth routes served on a socket of 127.0.0.1, with the lines they log. */
    async function served(trustProxy: boolean) {
      const { createEdge } = await import('../../../bot/http/app.ts');
      const { listen } = await import('../../../bot/http/server.ts');
      const { oauthRoutes } = await import('../../../mcp/oauth/routes.ts');
      const lines: string[] = [];
      const edge = createEdge({ log: (line) => lines.push(line) });
      edge.mount(
        '/',
        oauthRoutes({
          core: h.core,
          publicUrl: BASE,
          trustProxy,
          redeemConnectCode: async () => null,
        }),
      );
      const host = await listen(edge, { port: 0 });
      const { client_id } = await as.register();
      const url = `${host.url}/oauth/authorize?${new URLSearchParams({
        response_type: 'code',
        client_id,
        redirect_uri: REDIRECT,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        resource: RESOURCE,
      }).toString()}`;
      return { host, lines, url };
    }

    it('tells the operator once when requests come through a proxy here (X-Forwarded-For from loopback) while EXHALE_TRUST_PROXY is off', async () => {
      const { host, lines, url } = await served(false);
      try {
        expect((await fetch(url)).status).toBe(200);
        expect(lines.filter((l) => l.includes('EXHALE_TRUST_PROXY'))).toEqual([]);
        for (let i = 0; i < 2; i += 1)
          expect((await fetch(url, { headers: { 'x-forwarded-for': '203.0.113.7' } })).status).toBe(
            200,
          );
        const told = lines.filter((l) => l.includes('EXHALE_TRUST_PROXY is off'));
        expect(told).toHaveLength(1);
        expect(told[0]).toContain('set EXHALE_TRUST_PROXY=on');
      } finally {
        host.server.closeAllConnections();
        await host.close();
      }
    });

    it('says nothing with EXHALE_TRUST_PROXY on', async () => {
      const { host, lines, url } = await served(true);
      try {
        await fetch(url, { headers: { 'x-forwarded-for': '203.0.113.7' } });
        expect(lines.filter((l) => l.includes('EXHALE_TRUST_PROXY'))).toEqual([]);
      } finally {
        host.server.closeAllConnections();
        await host.close();
      }
    });
  });

  describe('registration (RFC 7591)', () => {
    it('registers a public client and a confidential one with a secret', async () => {
      const pub = await as.register();
      expect(pub.client_id).toMatch(/^exhale_/);
      expect(pub.client_secret).toBeUndefined();
      const conf = await as.register({ token_endpoint_auth_method: 'client_secret_basic' });
      expect(conf.client_secret).toMatch(/^exs_/);
      const row = (await h.db
        .knex('oauth_clients')
        .where({ client_id: conf.client_id })
        .first()) as {
        secret_hash: string;
      };
      expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(row)).not.toContain(conf.client_secret);
    });

    it('refuses redirect URIs that are not https or loopback, and grant types it does not serve', async () => {
      for (const [meta, error] of [
        [{ redirect_uris: ['http://evil.example.com/cb'] }, 'invalid_redirect_uri'],
        [{ redirect_uris: ['https://a.example.com/cb#frag'] }, 'invalid_redirect_uri'],
        [{ redirect_uris: ['javascript:alert(1)'] }, 'invalid_redirect_uri'],
        [{ redirect_uris: [] }, 'invalid_redirect_uri'],
        [{ grant_types: ['client_credentials'] }, 'invalid_client_metadata'],
      ] as const) {
        const response = await as.send('/oauth/register', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ redirect_uris: [REDIRECT], ...meta }),
        });
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ error });
      }
    });
    it('refuses an address past its registrations with 429 and Retry-After, storing nothing, while another address registers', async () => {
      await as.close();
      as = asHarness(h.core, {
        trustProxy: true,
        registrationLimits: { windowMs: 60 * 60_000, perAddress: 2 },
      });
      const from = (address: string) =>
        as.send('/oauth/register', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
          body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
        });
      expect((await from('203.0.113.7')).status).toBe(201);
      expect((await from('203.0.113.7')).status).toBe(201);
      const before = await count('oauth_clients');
      const refused = await from('203.0.113.7');
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(await refused.json()).toMatchObject({ error: 'too_many_requests' });
      expect(await count('oauth_clients')).toBe(before);
      expect((await from('198.51.100.20')).status).toBe(201);
    });
    it('keeps only the metadata it uses: a 1 MB unknown field is ignored, neither stored nor answered', async () => {
      const response = await as.send('/oauth/register', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'Claude.ai',
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: 'none',
          client_uri: 'https://claude.ai',
          software_statement: 'eyJ',
          junk: 'x'.repeat(1024 * 1024),
        }),
      });
      expect(response.status).toBe(201);
      const answered = (await response.json()) as Record<string, unknown>;
      expect(Object.keys(answered).sort()).toEqual([
        'client_id',
        'client_id_issued_at',
        'client_name',
        'redirect_uris',
        'token_endpoint_auth_method',
      ]);
      const row = (await h.db
        .knex('oauth_clients')
        .where({ client_id: answered.client_id })
        .first('metadata')) as { metadata: string };
      expect(JSON.parse(row.metadata)).toEqual({
        client_name: 'Claude.ai',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
      });
    });

    it('bounds what it keeps, naming the field and the bound in invalid_client_metadata', async () => {
      for (const [meta, problem] of [
        [{ client_name: 'n'.repeat(201) }, 'client_name: at most 200 characters'],
        [{ scope: 'read '.repeat(41) }, 'scope: at most 200 characters'],
        [
          { redirect_uris: Array.from({ length: 21 }, (_, i) => `${REDIRECT}${i}`) },
          'redirect_uris: at most 20 redirect URIs',
        ],
        [
          { redirect_uris: [`https://a.example/${'p'.repeat(2048)}`] },
          'redirect_uris.0: at most 2048 characters',
        ],
        [
          { logo_uri: `https://a.example/${'p'.repeat(2048)}` },
          'logo_uri: at most 2048 characters',
        ],
        [
          { grant_types: Array.from({ length: 11 }, () => 'authorization_code') },
          'grant_types: at most 10 entries',
        ],
        [{ response_types: ['code'.repeat(17)] }, 'response_types.0: at most 64 characters'],
      ] as const) {
        const response = await as.send('/oauth/register', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ redirect_uris: [REDIRECT], ...meta }),
        });
        expect(response.status, problem).toBe(400);
        expect(await response.json()).toEqual({
          error: 'invalid_client_metadata',
          error_description: problem,
        });
      }
      expect(await count('oauth_clients')).toBe(0);
    });
  });

  describe('native apps with a private-use scheme (Cursor, VS Code)', () => {
    for (const callback of [
      'cursor://anysphere.cursor-mcp/oauth/callback',
      'vscode://vscode.github-authentication/did-authenticate',
    ]) {
      it(`registers ${callback.split(':')[0]}, names it as an app on the consent page, and connects`, async () => {
        const { client_id } = await as.register({
          client_name: 'Cursor',
          redirect_uris: [callback],
        });
        const { verifier, challenge } = pkce();
        const query = new URLSearchParams({
          response_type: 'code',
          client_id,
          redirect_uri: callback,
          state: 's',
          code_challenge: challenge,
          code_challenge_method: 'S256',
          resource: RESOURCE,
        });
        const page = await as.send(`/oauth/authorize?${query.toString()}`);
        expect(page.status).toBe(200);
        const scheme = callback.split(':')[0] ?? '';
        // The form may post here and its answer redirect to the app's scheme (CSP form-action).
        expect(page.headers.get('content-security-policy')).toContain(
          `form-action 'self' ${scheme}:`,
        );
        const html = await page.text();
        const authority = new URL(callback).host;
        expect(html).toContain(`<span class="host">${scheme}://${authority}</span>`);
        expect(html).toContain('an app on this device, not a website');
        const answer = await as.form('/oauth/authorize', {
          ...Object.fromEntries(query),
          decision: 'allow',
          via: 'code',
          connect_code: await as.connectCode(h.owner),
        });
        expect(answer.status).toBe(302);
        const location = new URL(answer.headers.get('location') ?? '');
        expect(location.href.startsWith(`${callback}?`)).toBe(true);
        const tokens = await as.tokens(
          client_id,
          location.searchParams.get('code') ?? '',
          verifier,
          {
            redirect_uri: callback,
          },
        );
        expect(tokens.status).toBe(200);
      });
    }
  });

  describe('authorization code with PKCE', () => {
    it('connects a client: consent with a connect code, code with state and iss, tokens, an MCP call as the member', async () => {
      const { client_id } = await as.register();
      const { location, verifier } = await as.authorize(client_id, h.owner);
      expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
      expect(location.searchParams.get('state')).toBe('st-1');
      expect(location.searchParams.get('iss')).toBe(BASE);
      const response = await as.tokens(
        client_id,
        location.searchParams.get('code') ?? '',
        verifier,
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const tokens = (await response.json()) as Record<string, unknown>;
      expect(tokens).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'read write' });
      expect(tokens.access_token).toMatch(/^exa_[A-Za-z0-9_-]{43}$/);
      expect(tokens.refresh_token).toMatch(/^exr_[A-Za-z0-9_-]{43}$/);
      const call = await as.mcpCall(String(tokens.access_token), 'create_subscription', {
        name: 'Netflix',
        amount: '15.99',
      });
      expect(call.status).toBe(200);
      expect((await rpcResult(call)).isError).toBeFalsy();
      const activity = await h.core.invoke('list_activity', h.owner, {});
      const lines = (
        activity.output as { items: Array<{ op: string; summary: string; channel: string }> }
      ).items;
      expect(lines.map((l) => l.op)).toEqual(
        expect.arrayContaining(['connect_app', 'create_subscription']),
      );
      // Allowed on the consent page, not in the Mini App.
      expect(lines.find((l) => l.op === 'connect_app')?.channel).toBe('consent');
      const stored = await h.db.knex('oauth_tokens').select('hash');
      expect(JSON.stringify(stored)).not.toContain(String(tokens.access_token).slice(4));
    });

    it('lets the person lower the scope, never raise it', async () => {
      const { client_id } = await as.register();
      const lowered = await as.authorize(client_id, h.owner, { granted_scope: 'read' });
      const tokens = (await (
        await as.tokens(
          client_id,
          lowered.location.searchParams.get('code') ?? '',
          lowered.verifier,
        )
      ).json()) as { scope: string; access_token: string };
      expect(tokens.scope).toBe('read');
      expect(
        (await as.mcpCall(tokens.access_token, 'create_subscription', { name: 'X', amount: '1' }))
          .status,
      ).toBe(403);
      const raised = await as.authorize(client_id, h.owner, {
        scope: 'read',
        granted_scope: 'trusted',
      });
      const again = (await (
        await as.tokens(client_id, raised.location.searchParams.get('code') ?? '', raised.verifier)
      ).json()) as { scope: string };
      expect(again.scope).toBe('read');
    });

    it('answers bad requests back to the client with error, state and iss: plain PKCE, no challenge, missing or wrong resource', async () => {
      const { client_id } = await as.register();
      const { challenge } = pkce();
      const base = {
        response_type: 'code',
        client_id,
        redirect_uri: REDIRECT,
        state: 'st-9',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource: RESOURCE,
      };
      for (const [change, error] of [
        [{ code_challenge_method: 'plain' }, 'invalid_request'],
        [{ code_challenge: '' }, 'invalid_request'],
        [{ resource: '' }, 'invalid_target'],
        [{ resource: 'https://other.example.com/mcp' }, 'invalid_target'],
        [{ response_type: 'token' }, 'unsupported_response_type'],
      ] as const) {
        const query = new URLSearchParams({ ...base, ...change });
        const response = await as.send(`/oauth/authorize?${query.toString()}`);
        expect(response.status, JSON.stringify(change)).toBe(302);
        const location = new URL(response.headers.get('location') ?? '');
        expect(location.searchParams.get('error')).toBe(error);
        expect(location.searchParams.get('state')).toBe('st-9');
        expect(location.searchParams.get('iss')).toBe(BASE);
      }
    });

    it('ignores scope words it does not know (openid, profile, offline_access), taking the default when none is known', async () => {
      const { client_id } = await as.register();
      const pageFor = async (scope: string) => {
        const query = new URLSearchParams({
          response_type: 'code',
          client_id,
          redirect_uri: REDIRECT,
          code_challenge: pkce().challenge,
          code_challenge_method: 'S256',
          resource: RESOURCE,
          scope,
        });
        const response = await as.send(`/oauth/authorize?${query.toString()}`);
        expect(response.status, scope).toBe(200);
        return response.text();
      };
      const none = await pageFor('openid profile');
      expect(none).toContain('value="write" checked');
      expect(none).not.toContain('value="trusted"');
      const read = await pageFor('openid read offline_access');
      expect(read).toContain('value="read" checked');
      expect(read).not.toContain('value="write"');
      const { location, verifier } = await as.authorize(client_id, h.owner, {
        scope: 'openid profile offline_access',
      });
      const tokens = (await (
        await as.tokens(client_id, location.searchParams.get('code') ?? '', verifier)
      ).json()) as { scope: string; refresh_token: string };
      expect(tokens.scope).toBe('read write');
      const refreshed = await as.form('/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id,
        scope: 'offline_access',
      });
      expect(await refreshed.json()).toMatchObject({ scope: 'read write' });
    });

    it('never grants a client more than the scope it registered', async () => {
      const { client_id } = await as.register({ scope: 'read' });
      const asked = new URLSearchParams({
        response_type: 'code',
        client_id,
        redirect_uri: REDIRECT,
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        resource: RESOURCE,
        scope: 'read write trusted',
      });
      const page = await (await as.send(`/oauth/authorize?${asked.toString()}`)).text();
      expect(page).toContain('value="read" checked');
      expect(page).not.toContain('value="write"');
      const tries: Array<Record<string, string>> = [
        { scope: 'read write trusted', granted_scope: 'trusted' },
        { scope: '' },
      ];
      for (const overrides of tries) {
        const { location, verifier } = await as.authorize(client_id, h.owner, overrides);
        const tokens = (await (
          await as.tokens(client_id, location.searchParams.get('code') ?? '', verifier)
        ).json()) as { scope: string; access_token: string };
        expect(tokens.scope, JSON.stringify(overrides)).toBe('read');
        expect(
          (await as.mcpCall(tokens.access_token, 'create_subscription', { name: 'X', amount: '1' }))
            .status,
        ).toBe(403);
      }
      const listed = (await h.core.invoke('list_connected_apps', h.owner, {})).output as {
        items: Array<{ scope: string }>;
      };
      expect(listed.items.map((i) => i.scope)).toEqual(['read', 'read']);
    });

    it('shows an error page, never a redirect, for an unknown client or a redirect URI that differs by one character', async () => {
      const { client_id } = await as.register();
      const { challenge } = pkce();
      for (const change of [
        { client_id: 'exhale_unknown' },
        { redirect_uri: `${REDIRECT}x` },
        { redirect_uri: 'http://127.0.0.2:3000/callback' },
      ]) {
        const query = new URLSearchParams({
          response_type: 'code',
          client_id,
          redirect_uri: REDIRECT,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          resource: RESOURCE,
          ...change,
        });
        const response = await as.send(`/oauth/authorize?${query.toString()}`);
        expect(response.status).toBe(400);
        expect(response.headers.get('location')).toBeNull();
        expect(response.headers.get('content-type')).toContain('text/html');
      }
    });

    it('takes the only registered redirect URI when none is named; the token request may then leave it out or repeat that URI, and nothing else', async () => {
      const { client_id } = await as.register();
      const unnamedCode = async () => {
        const { verifier, challenge } = pkce();
        const response = await as.form('/oauth/authorize', {
          response_type: 'code',
          client_id,
          code_challenge: challenge,
          code_challenge_method: 'S256',
          resource: RESOURCE,
          decision: 'allow',
          via: 'code',
          connect_code: await as.connectCode(h.owner),
        });
        const location = new URL(response.headers.get('location') ?? '');
        expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
        return { code: location.searchParams.get('code') ?? '', verifier };
      };
      const other = await unnamedCode();
      for (const wrong of [`${REDIRECT}/`, 'http://127.0.0.1:3001/callback'])
        expect(
          await (
            await as.tokens(client_id, other.code, other.verifier, { redirect_uri: wrong })
          ).json(),
          wrong,
        ).toMatchObject({ error: 'invalid_grant' });
      // The same URI the code was sent to (RFC 6749 §4.1.3 does not forbid repeating it).
      const same = await unnamedCode();
      expect((await as.tokens(client_id, same.code, same.verifier)).status).toBe(200);
      const left = await unnamedCode();
      const unnamed = await as.form('/oauth/token', {
        grant_type: 'authorization_code',
        code: left.code,
        client_id,
        code_verifier: left.verifier,
        resource: RESOURCE,
      });
      expect(unnamed.status).toBe(200);
      // Sent without a value is as if omitted (RFC 6749 §3.2).
      const empty = await unnamedCode();
      expect(
        (await as.tokens(client_id, empty.code, empty.verifier, { redirect_uri: '' })).status,
      ).toBe(200);
    });

    it('wants the redirect URI at the token endpoint when the authorization request named it', async () => {
      const { client_id } = await as.register();
      const { location, verifier } = await as.authorize(client_id, h.owner);
      const response = await as.form('/oauth/token', {
        grant_type: 'authorization_code',
        code: location.searchParams.get('code') ?? '',
        client_id,
        code_verifier: verifier,
        resource: RESOURCE,
      });
      expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
    });

    it('relaxes only the port of a loopback redirect URI (RFC 8252)', async () => {
      const { client_id } = await as.register();
      const { location } = await as.authorize(client_id, h.owner, {
        redirect_uri: 'http://127.0.0.1:51234/callback',
      });
      expect(location.port).toBe('51234');
    });

    it('refuses a wrong verifier, a wrong or missing resource, another redirect URI, and a replayed code (which revokes what the code gave)', async () => {
      const { client_id } = await as.register();
      const { location, verifier } = await as.authorize(client_id, h.owner);
      const code = location.searchParams.get('code') ?? '';
      const refused = async (extra: Record<string, string>, error: string) => {
        const response = await as.tokens(client_id, code, verifier, extra);
        expect(response.status, JSON.stringify(extra)).toBe(400);
        expect(await response.json()).toMatchObject({ error });
      };
      await refused({ code_verifier: pkce().verifier }, 'invalid_grant');
      await refused({ resource: 'https://other.example.com/mcp' }, 'invalid_target');
      await refused({ resource: '' }, 'invalid_target');
      await refused({ redirect_uri: `${REDIRECT}/` }, 'invalid_grant');
      const first = (await (await as.tokens(client_id, code, verifier)).json()) as {
        access_token: string;
      };
      expect((await as.mcpCall(first.access_token, 'list_subscriptions')).status).toBe(200);
      await refused({}, 'invalid_grant');
      expect((await as.mcpCall(first.access_token, 'list_subscriptions')).status).toBe(401);
    });

    it('refuses a code after 10 minutes', async () => {
      const { client_id } = await as.register();
      const { location, verifier } = await as.authorize(client_id, h.owner);
      h.clock.now = new Date(h.clock.now.getTime() + 10 * 60_000 + 1);
      const response = await as.tokens(
        client_id,
        location.searchParams.get('code') ?? '',
        verifier,
      );
      expect(await response.json()).toMatchObject({ error: 'invalid_grant' });
    });

    it('denies: access_denied back to the client, with state and iss, and no grant', async () => {
      const { client_id } = await as.register();
      const { location } = await as.authorize(client_id, h.owner, { decision: 'deny' });
      expect(location.searchParams.get('error')).toBe('access_denied');
      expect(location.searchParams.get('state')).toBe('st-1');
      expect(location.searchParams.get('iss')).toBe(BASE);
      expect(await count('oauth_grants')).toBe(0);
    });
  });

  describe('confidential clients', () => {
    it('authenticates with client_secret_basic and client_secret_post, and refuses a wrong secret', async () => {
      const { client_id, client_secret = '' } = await as.register({
        token_endpoint_auth_method: 'client_secret_basic',
      });
      const basic = `Basic ${Buffer.from(`${client_id}:${client_secret}`).toString('base64')}`;
      const one = await as.authorize(client_id, h.owner);
      const viaBasic = await as.form(
        '/oauth/token',
        {
          grant_type: 'authorization_code',
          code: one.location.searchParams.get('code') ?? '',
          redirect_uri: REDIRECT,
          code_verifier: one.verifier,
          resource: RESOURCE,
        },
        { authorization: basic },
      );
      expect(viaBasic.status).toBe(200);
      const two = await as.authorize(client_id, h.owner);
      const wrong = await as.tokens(
        client_id,
        two.location.searchParams.get('code') ?? '',
        two.verifier,
        {
          client_secret: 'exs_wrong',
        },
      );
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toMatchObject({ error: 'invalid_client' });
      const none = await as.tokens(
        client_id,
        two.location.searchParams.get('code') ?? '',
        two.verifier,
      );
      expect(none.status).toBe(401);
      const viaPost = await as.tokens(
        client_id,
        two.location.searchParams.get('code') ?? '',
        two.verifier,
        {
          client_secret,
        },
      );
      expect(viaPost.status).toBe(200);
    });
    it('answers Basic credentials with a malformed percent escape as 401 invalid_client, never a 500', async () => {
      const { client_id } = await as.register({
        token_endpoint_auth_method: 'client_secret_basic',
      });
      for (const pair of ['a%zz:b', `${client_id}:%E0%A4%A`]) {
        const response = await as.form(
          '/oauth/token',
          { grant_type: 'refresh_token', refresh_token: 'exr_x' },
          { authorization: `Basic ${Buffer.from(pair).toString('base64')}` },
        );
        expect(response.status, pair).toBe(401);
        expect(await response.json()).toMatchObject({ error: 'invalid_client' });
      }
    });

    it('takes an empty secret from a public client as no secret, in the body or a Basic header', async () => {
      const { client_id } = await as.register();
      const viaBody = await as.authorize(client_id, h.owner);
      const body = await as.tokens(
        client_id,
        viaBody.location.searchParams.get('code') ?? '',
        viaBody.verifier,
        { client_secret: '' },
      );
      expect(body.status).toBe(200);
      const viaBasic = await as.authorize(client_id, h.owner);
      const basic = await as.form(
        '/oauth/token',
        {
          grant_type: 'authorization_code',
          code: viaBasic.location.searchParams.get('code') ?? '',
          redirect_uri: REDIRECT,
          code_verifier: viaBasic.verifier,
          resource: RESOURCE,
        },
        { authorization: `Basic ${Buffer.from(`${client_id}:`).toString('base64')}` },
      );
      expect(basic.status).toBe(200);
      // A secret that is not empty is still refused: a public client has none.
      const third = await as.authorize(client_id, h.owner);
      const wrong = await as.tokens(
        client_id,
        third.location.searchParams.get('code') ?? '',
        third.verifier,
        { client_secret: 'exs_something' },
      );
      expect(wrong.status).toBe(401);
    });

    it('refuses an empty secret from a confidential client', async () => {
      const { client_id } = await as.register({
        token_endpoint_auth_method: 'client_secret_post',
      });
      const { location, verifier } = await as.authorize(client_id, h.owner);
      const response = await as.tokens(
        client_id,
        location.searchParams.get('code') ?? '',
        verifier,
        {
          client_secret: '',
        },
      );
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'invalid_client' });
    });
  });

  describe('tokens', () => {
    it('rotates the refresh token on every use; the old one used again after the reuse leeway revokes the family', async () => {
      const first = await connected();
      const refresh = (token: string) =>
        as.form('/oauth/token', {
          grant_type: 'refresh_token',
          refresh_token: token,
          client_id: first.client_id,
          resource: RESOURCE,
        });
      const second = (await (await refresh(first.refresh_token)).json()) as typeof first;
      expect(second.refresh_token).not.toBe(first.refresh_token);
      expect((await as.mcpCall(second.access_token, 'list_subscriptions')).status).toBe(200);
      h.clock.now = new Date(h.clock.now.getTime() + REFRESH_REUSE_LEEWAY_MS);
      const reuse = await refresh(first.refresh_token);
      expect(await reuse.json()).toMatchObject({
        error: 'invalid_grant',
        error_description: 'the refresh token was already used',
      });
      expect((await as.mcpCall(second.access_token, 'list_subscriptions')).status).toBe(401);
      expect(await (await refresh(second.refresh_token)).json()).toMatchObject({
        error: 'invalid_grant',
      });
    });

    it('gives a second use of a refresh token within the leeway after its rotation a fresh pair, revoking nothing; past the leeway that use revokes every pair', async () => {
      const first = await connected();
      const refresh = (token: string, scope?: string) =>
        as.form('/oauth/token', {
          grant_type: 'refresh_token',
          refresh_token: token,
          client_id: first.client_id,
          resource: RESOURCE,
          ...(scope === undefined ? {} : { scope }),
        });
      const winner = (await (await refresh(first.refresh_token)).json()) as typeof first;
      h.clock.now = new Date(h.clock.now.getTime() + REFRESH_REUSE_LEEWAY_MS - 1);
      const late = await refresh(first.refresh_token, 'read');
      expect(late.status).toBe(200);
      const second = (await late.json()) as typeof first;
      expect(second.scope).toBe('read');
      expect(second.refresh_token).not.toBe(winner.refresh_token);
      for (const token of [winner.access_token, second.access_token])
        expect((await as.mcpCall(token, 'list_subscriptions')).status).toBe(200);
      // The pair from the leeway is of the same grant, with its scope: it refreshes to write.
      const third = (await (await refresh(second.refresh_token, 'write')).json()) as typeof first;
      expect(third.scope).toBe('read write');
      // The leeway counts from the rotation, not from the last use within it.
      h.clock.now = new Date(h.clock.now.getTime() + 1);
      expect(await (await refresh(first.refresh_token)).json()).toMatchObject({
        error: 'invalid_grant',
      });
      for (const token of [winner.access_token, second.access_token, third.access_token])
        expect((await as.mcpCall(token, 'list_subscriptions')).status).toBe(401);
      expect((await refresh(third.refresh_token)).status).toBe(400);
    });

    it('refuses within the leeway what it refuses on a first use: another resource, a higher scope, a disconnected grant', async () => {
      const first = await connected('read');
      const refresh = (extra: Record<string, string>) =>
        as.form('/oauth/token', {
          grant_type: 'refresh_token',
          refresh_token: first.refresh_token,
          client_id: first.client_id,
          ...extra,
        });
      expect((await refresh({})).status).toBe(200);
      expect(
        await (await refresh({ resource: 'https://other.example.com/mcp' })).json(),
      ).toMatchObject({
        error: 'invalid_target',
      });
      expect(await (await refresh({ scope: 'write' })).json()).toMatchObject({
        error: 'invalid_scope',
      });
      const listed = (await h.core.invoke('list_connected_apps', h.owner, {})).output as {
        items: Array<{ id: string }>;
      };
      await h.core.invoke('disconnect_app', h.owner, { id: listed.items[0]?.id ?? '' });
      expect((await refresh({})).status).toBe(400);
    });

    it('lowers the scope on refresh, never raises it', async () => {
      const first = await connected('read');
      const raised = await as.form('/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token,
        client_id: first.client_id,
        scope: 'write',
      });
      expect(await raised.json()).toMatchObject({ error: 'invalid_scope' });
    });

    it('narrows only the access token on a refresh with a lower scope: the new refresh token keeps the grant’s scope (RFC 6749 §6)', async () => {
      const first = await connected('read write');
      const refresh = (token: string, scope?: string) =>
        as.form('/oauth/token', {
          grant_type: 'refresh_token',
          refresh_token: token,
          client_id: first.client_id,
          ...(scope === undefined ? {} : { scope }),
        });
      const narrowed = (await (await refresh(first.refresh_token, 'read')).json()) as typeof first;
      expect(narrowed.scope).toBe('read');
      expect(
        (await as.mcpCall(narrowed.access_token, 'create_subscription', { name: 'X', amount: '1' }))
          .status,
      ).toBe(403);
      const widened = await refresh(narrowed.refresh_token, 'read write');
      expect(widened.status).toBe(200);
      const back = (await widened.json()) as typeof first;
      expect(back.scope).toBe('read write');
      expect(
        (await as.mcpCall(back.access_token, 'create_subscription', { name: 'X', amount: '1' }))
          .status,
      ).toBe(200);
      const unnamed = (await (await refresh(back.refresh_token)).json()) as typeof first;
      expect(unnamed.scope).toBe('read write');
      // What the app may do is what the person granted, whatever it last asked for.
      const listed = (await h.core.invoke('list_connected_apps', h.owner, {})).output as {
        items: Array<{ scope: string }>;
      };
      expect(listed.items.map((i) => i.scope)).toEqual(['write']);
    });

    it('refuses an expired access token (fake clock) and a token for another resource', async () => {
      const tokens = await connected();
      h.clock.now = new Date(h.clock.now.getTime() + 60 * 60_000 + 1);
      expect((await as.mcpCall(tokens.access_token, 'list_subscriptions')).status).toBe(401);
      const other = asHarness(h.core, { publicUrl: 'https://other.example.com' });
      const fresh = await connected();
      const response = await other.send('/mcp', {
        method: 'POST',
        headers: {
          host: 'other.example.com',
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${fresh.access_token}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
      await other.close();
    });

    it('revokes (RFC 7009): an access token alone, a refresh token with its family; unknown tokens answer 200', async () => {
      const tokens = await connected();
      const revoke = (token: string) =>
        as.form('/oauth/revoke', { token, client_id: tokens.client_id });
      expect((await revoke('exa_nothing')).status).toBe(200);
      expect((await revoke(tokens.access_token)).status).toBe(200);
      expect((await as.mcpCall(tokens.access_token, 'list_subscriptions')).status).toBe(401);
      const refreshed = (await (
        await as.form('/oauth/token', {
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: tokens.client_id,
        })
      ).json()) as typeof tokens;
      expect((await revoke(refreshed.refresh_token)).status).toBe(200);
      expect((await as.mcpCall(refreshed.access_token, 'list_subscriptions')).status).toBe(401);
    });

    it('accepts agent tokens on /mcp as before', async () => {
      const { output } = await h.core.invoke('create_token', h.owner, {
        name: 'cli',
        scope: 'read',
      });
      expect(
        (await as.mcpCall((output as { token: string }).token, 'list_subscriptions')).status,
      ).toBe(200);
    });
  });

  describe('connected apps', () => {
    it('lists the app, disconnects it (its tokens die on the next request), and undo reconnects', async () => {
      const tokens = await connected();
      await as.mcpCall(tokens.access_token, 'list_subscriptions');
      const listed = (await h.core.invoke('list_connected_apps', h.owner, {})).output as {
        items: Array<{
          id: string;
          client_name: string;
          scope: string;
          last_used_at: string | null;
        }>;
      };
      expect(listed.items).toMatchObject([{ client_name: 'Claude.ai', scope: 'write' }]);
      expect(listed.items[0]?.last_used_at).not.toBeNull();
      const id = listed.items[0]?.id ?? '';
      const off = await h.core.invoke('disconnect_app', h.owner, { id });
      expect((await as.mcpCall(tokens.access_token, 'list_subscriptions')).status).toBe(401);
      await h.core.invoke('undo', h.owner, { ids: [off.auditId] });
      expect((await as.mcpCall(tokens.access_token, 'list_subscriptions')).status).toBe(200);
    });

    it("hides another member's apps from a member, and removing a member removes their grants", async () => {
      const bea = await h.addMember('Bea');
      const { client_id } = await as.register();
      const { location, verifier } = await as.authorize(client_id, bea);
      const tokens = (await (
        await as.tokens(client_id, location.searchParams.get('code') ?? '', verifier)
      ).json()) as {
        access_token: string;
      };
      const ana = await h.core.invoke('list_connected_apps', h.owner, {});
      expect((ana.output as { items: unknown[] }).items).toHaveLength(1);
      const other = await as.register();
      await as.authorize(other.client_id, h.owner);
      const own = await h.core.invoke('list_connected_apps', bea, {});
      expect((own.output as { items: unknown[] }).items).toHaveLength(1);
      await h.core.invoke('remove_member', h.owner, { id: bea.memberId });
      expect((await as.mcpCall(tokens.access_token, 'list_subscriptions')).status).toBe(401);
      expect(await h.db.knex('oauth_grants').where({ member_id: bea.memberId })).toEqual([]);
    });

    it('offers list and disconnect to agents, never connect_app or create_connect_code', async () => {
      const tokens = await connected('read write trusted');
      const response = await as.send('/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${tokens.access_token}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      const text = await response.text();
      expect(text).toContain('"list_connected_apps"');
      expect(text).toContain('"disconnect_app"');
      expect(text).not.toContain('"connect_app"');
      expect(text).not.toContain('"create_connect_code"');
    });
  });

  describe('the consent page', () => {
    async function page(headers: Record<string, string> = {}) {
      const { client_id } = await as.register({ client_name: 'Claude <b>' });
      const query = new URLSearchParams({
        response_type: 'code',
        client_id,
        redirect_uri: REDIRECT,
        state: 's',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        resource: RESOURCE,
        scope: 'read write',
      });
      return {
        client_id,
        query,
        response: await as.send(`/oauth/authorize?${query.toString()}`, { headers }),
      };
    }

    it('runs no script, loads nothing from elsewhere, cannot be framed, and names the client, unverified, and the host it returns to', async () => {
      const { response } = await page();
      expect(response.status).toBe(200);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('script-src');
      expect(csp).not.toContain('unsafe-inline');
      // Images only inline (the client's logo, fetched by the server), never from a URL.
      expect(csp).toContain('img-src data:;');
      const html = await response.text();
      expect(html).not.toMatch(/<script|<img|<link|<iframe|\bsrc=/i);
      // The name isolated in its own direction, escaped.
      expect(html).toContain('Connect <bdi>Claude &lt;b&gt;</bdi> to Exhale');
      expect(html).toContain('unverified');
      expect(html).toContain('127.0.0.1:3000');
      expect(html).toContain('value="write" checked');
      expect(html).toContain('value="read"');
      expect(html).not.toContain('value="trusted"');
      expect(html).toContain('name="connect_code"');
    });

    it('records and announces the connected app under its name without bidi controls', async () => {
      const { client_id } = await as.register({ client_name: 'Acme\u202E\nevil' });
      await as.authorize(client_id, h.owner);
      const listed = (await h.core.invoke('list_connected_apps', h.owner, {})).output as {
        items: Array<{ client_name: string }>;
      };
      expect(listed.items.map((i) => i.client_name)).toEqual(['Acme evil']);
    });

    it('speaks Spanish to a Spanish browser', async () => {
      const { response } = await page({ 'accept-language': 'es-ES,es;q=0.9,en;q=0.5' });
      const html = await response.text();
      expect(html).toContain('lang="es"');
      expect(html).toContain('Código de conexión');
    });

    it('refuses a wrong code without saying more, then limits tries per client and address', async () => {
      const { query } = await page();
      const tryCode = (code: string) =>
        as.form('/oauth/authorize', {
          ...Object.fromEntries(query),
          decision: 'allow',
          connect_code: code,
        });
      for (let i = 0; i < 5; i += 1) {
        const response = await tryCode('AAAA-AAAA');
        expect(response.status).toBe(400);
        expect(await response.text()).toContain('That code is not right.');
      }
      const good = await as.connectCode(h.owner);
      const limited = await tryCode(good);
      expect(limited.status).toBe(429);
      expect(await count('oauth_grants')).toBe(0);
    });

    async function signedIn(memberId = h.ownerId): Promise<string> {
      const session = await h.db.knex.transaction((trx) =>
        startWebSession(trx, {
          id: `wss_${memberId}`,
          householdId: h.householdId,
          memberId,
          userAgent: null,
          now: h.clock.now,
        }),
      );
      return `exhale_session=${session.token}`;
    }

    const grantsOf = async () => (await h.db.knex('oauth_grants').pluck('member_id')) as string[];

    it('shows Allow and Deny without a code to a person signed in on the web (exhale_session), and takes that session', async () => {
      const cookie = await signedIn();
      const { query, response } = await page({ cookie });
      const html = await response.text();
      expect(html).not.toContain('name="connect_code"');
      expect(html).toContain('<input type="hidden" name="via" value="session">');
      const allowed = await as.form(
        '/oauth/authorize',
        { ...Object.fromEntries(query), decision: 'allow', via: 'session' },
        { cookie },
      );
      expect(allowed.status).toBe(302);
      expect(new URL(allowed.headers.get('location') ?? '').searchParams.get('code')).toMatch(
        /^exc_/,
      );
      expect(await grantsOf()).toEqual([h.ownerId]);
    });

    it('asks for a code when a session page is answered without the session (signed out meanwhile)', async () => {
      const { query } = await page();
      const without = await as.form('/oauth/authorize', {
        ...Object.fromEntries(query),
        decision: 'allow',
        via: 'session',
      });
      expect(without.status).toBe(400);
      const html = await without.text();
      expect(html).toContain('You are no longer signed in here');
      expect(html).toContain('name="connect_code"');
      expect(html).toContain('<input type="hidden" name="via" value="code">');
      expect(await grantsOf()).toEqual([]);
    });

    it('takes only a code on a page that showed the code field, even when the browser also has a session: the code’s member is connected, a wrong code is refused', async () => {
      const bea = await h.addMember('Bea');
      // Reached from the app's site, the page was shown without the SameSite=Strict cookie; the
      // same-site POST carries it.
      const cookie = await signedIn();
      const { query, response } = await page();
      expect(await response.text()).toContain('<input type="hidden" name="via" value="code">');
      const answer = (fields: Record<string, string>) =>
        as.form(
          '/oauth/authorize',
          { ...Object.fromEntries(query), decision: 'allow', via: 'code', ...fields },
          { cookie },
        );
      for (const typed of ['JUNK-JUNK', '']) {
        const refused = await answer({ connect_code: typed });
        expect(refused.status, typed).toBe(400);
        expect(await refused.text()).toContain('That code is not right.');
      }
      expect(await grantsOf()).toEqual([]);
      const code = await as.connectCode(bea);
      expect((await answer({ connect_code: code })).status).toBe(302);
      expect(await grantsOf()).toEqual([bea.memberId]);
      // The code was used: it does not connect anything again.
      expect((await answer({ connect_code: code })).status).toBe(400);
      // A hand-made form that says neither needs a code too.
      const bare = await as.form(
        '/oauth/authorize',
        { ...Object.fromEntries(query), decision: 'allow' },
        { cookie },
      );
      expect(bare.status).toBe(400);
      expect(await grantsOf()).toEqual([bea.memberId]);
    });

    it('takes a connect code once', async () => {
      const { query } = await page();
      const code = await as.connectCode(h.owner);
      const fields = {
        ...Object.fromEntries(query),
        decision: 'allow',
        connect_code: code.toLowerCase(),
      };
      expect((await as.form('/oauth/authorize', fields)).status).toBe(302);
      expect((await as.form('/oauth/authorize', fields)).status).toBe(400);
    });
  });

  describe('cleanup', () => {
    it('removes clients nobody connected within a week, and expired codes and tokens', async () => {
      const { purgeOAuth } = await import('../../../core/index.ts');
      const idle = await as.register();
      const used = await connected();
      h.clock.now = new Date(h.clock.now.getTime() + 31 * 24 * 60 * 60_000);
      await purgeOAuth(h.db, h.clock.now);
      const clients = (await h.db.knex('oauth_clients').pluck('client_id')) as string[];
      expect(clients).toContain(used.client_id);
      expect(clients).not.toContain(idle.client_id);
      expect(await count('oauth_tokens')).toBe(0);
      expect(await count('oauth_codes')).toBe(0);
    });
  });
});
