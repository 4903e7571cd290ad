import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';
import { type AsHarness, asHarness, BASE, pkce, RESOURCE } from './harness.ts';

/**
 * The requests the real connectors make, as their documentation and their developers' reports
 * show them (docs/remote-agents.md names the sources): each must connect without anything set up
 * for it on Exhale's side.
 */
describe('the real connectors’ requests', () => {
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

  function authorizeQuery(clientId: string, redirect: string, challenge: string, scope?: string) {
    return new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: redirect,
      state: 'oauth_s_1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: RESOURCE,
      ...(scope === undefined ? {} : { scope }),
    });
  }

  /** Consent with a connect code, keeping what the page preselected; the redirect's URL. */
  async function consent(query: URLSearchParams): Promise<URL> {
    const page = await (await as.send(`/oauth/authorize?${query.toString()}`)).text();
    const preselected = /value="(\w+)" checked/.exec(page)?.[1] ?? '';
    const answer = await as.form('/oauth/authorize', {
      ...Object.fromEntries(query),
      decision: 'allow',
      granted_scope: preselected,
      connect_code: await as.connectCode(h.owner),
    });
    expect(answer.status).toBe(302);
    return new URL(answer.headers.get('location') ?? '');
  }

  it('Claude (claude.ai and claude.com callbacks, DCR): registers, consents, exchanges and refreshes', async () => {
    const callbacks = [
      'https://claude.ai/api/mcp/auth_callback',
      'https://claude.com/api/mcp/auth_callback',
    ];
    const { client_id } = await as.register({
      client_name: 'Claude',
      redirect_uris: callbacks,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
    for (const callback of callbacks) {
      const { verifier, challenge } = pkce();
      // Claude asks for the scope the 401 challenge names.
      const back = await consent(authorizeQuery(client_id, callback, challenge, 'read write'));
      expect(back.origin + back.pathname).toBe(callback);
      expect(back.searchParams.get('iss')).toBe(BASE);
      expect(back.searchParams.get('state')).toBe('oauth_s_1');
      const tokens = (await (
        await as.tokens(client_id, back.searchParams.get('code') ?? '', verifier, {
          redirect_uri: callback,
        })
      ).json()) as { scope: string; refresh_token: string; expires_in: number };
      expect(tokens.scope).toBe('read write');
      expect(tokens.expires_in).toBe(3600);
      const refreshed = await as.form('/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id,
        resource: RESOURCE,
      });
      expect(refreshed.status).toBe(200);
    }
  });

  it('ChatGPT (connector_platform_oauth_redirect, DCR): asks every listed scope, gets write preselected; reconnecting without scope works', async () => {
    const callback = 'https://chatgpt.com/connector_platform_oauth_redirect';
    const { client_id } = await as.register({
      client_name: 'ChatGPT',
      redirect_uris: [callback],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      scope: 'read write trusted',
    });
    const first = pkce();
    const query = authorizeQuery(client_id, callback, first.challenge, 'read write trusted');
    const page = await (await as.send(`/oauth/authorize?${query.toString()}`)).text();
    // Changing without asking is offered, never preselected: the person picks it themselves.
    expect(page).toContain('value="trusted"');
    expect(page).toContain('value="write" checked');
    const back = await consent(query);
    expect(back.origin + back.pathname).toBe(callback);
    const tokens = (await (
      await as.tokens(client_id, back.searchParams.get('code') ?? '', first.verifier, {
        redirect_uri: callback,
      })
    ).json()) as { scope: string };
    expect(tokens.scope).toBe('read write');
    // After "Disconnect" then "Connect" ChatGPT sends no scope at all.
    const again = pkce();
    const reconnect = await consent(authorizeQuery(client_id, callback, again.challenge));
    const second = (await (
      await as.tokens(client_id, reconnect.searchParams.get('code') ?? '', again.verifier, {
        redirect_uri: callback,
      })
    ).json()) as { scope: string };
    expect(second.scope).toBe('read write');
  });

  it('Claude Desktop and Claude Code (a loopback callback on a port chosen each run)', async () => {
    const { client_id } = await as.register({
      client_name: 'Claude Code',
      redirect_uris: ['http://localhost:33418/callback'],
      token_endpoint_auth_method: 'none',
    });
    const { verifier, challenge } = pkce();
    const callback = 'http://localhost:51234/callback';
    const back = await consent(authorizeQuery(client_id, callback, challenge, 'read write'));
    expect(back.origin).toBe('http://localhost:51234');
    const exchanged = await as.tokens(client_id, back.searchParams.get('code') ?? '', verifier, {
      redirect_uri: callback,
    });
    expect(exchanged.status).toBe(200);
  });
});
