import { describe, expect, it } from 'vitest';

import {
  matchRedirectUri,
  redirectTarget,
  redirectUriProblem,
} from '../../../../core/auth/oauth/redirects.ts';

describe('redirect URIs a client may register', () => {
  it("takes the private-use schemes real native clients register, reverse-domain or not (Cursor's, VS Code's)", () => {
    for (const uri of [
      'cursor://anysphere.cursor-mcp/oauth/callback',
      'vscode://vscode.github-authentication/did-authenticate',
      'vscode-insiders://ms-vscode.mcp/callback',
      'com.example.app:/oauth2redirect',
      'x-app://cb',
      'https://claude.ai/api/mcp/auth_callback',
      'http://127.0.0.1:3000/callback',
      'http://[::1]/cb',
      'http://localhost:9/cb',
    ])
      expect(redirectUriProblem(uri), uri).toBeNull();
  });

  it('refuses schemes that run or carry content, the web’s other special schemes, browser pages, and http off loopback', () => {
    for (const uri of [
      'javascript:alert(1)',
      'javascript://x/%0aalert(1)',
      'JavaScript://x/%0aalert(1)',
      'vbscript://x/msgbox',
      'data:text/html,<script>alert(1)</script>',
      'data://x/y',
      'blob:https://a.example/1',
      'filesystem:https://a.example/temporary/x',
      'about:blank',
      'about://blank/x',
      'view-source:https://a.example/',
      'file:///etc/passwd',
      'ftp://a.example/cb',
      'ws://a.example/cb',
      'wss://a.example/cb',
      'chrome://settings/passwords',
      'http://evil.example.com/cb',
      'http://127.0.0.1.evil.example/cb',
    ])
      expect(redirectUriProblem(uri), uri).not.toBeNull();
  });

  it('refuses a URI with neither an authority nor a path from /, which no app callback is', () => {
    for (const uri of ['mailto:ana@example.com', 'tel:123', 'myapp:callback', 'myapp:', 'myapp://'])
      expect(redirectUriProblem(uri), uri).not.toBeNull();
  });

  it('refuses a fragment or user info on any scheme', () => {
    for (const uri of [
      'cursor://anysphere.cursor-mcp/cb#x',
      'cursor://user:pass@anysphere.cursor-mcp/cb',
      'https://user@a.example/cb',
    ])
      expect(redirectUriProblem(uri), uri).not.toBeNull();
  });

  it('matches a private-use redirect URI exactly (only a loopback http port may differ)', () => {
    const registered = ['cursor://anysphere.cursor-mcp/oauth/callback'];
    expect(matchRedirectUri('cursor://anysphere.cursor-mcp/oauth/callback', registered)).toBe(
      registered[0],
    );
    expect(
      matchRedirectUri('cursor://anysphere.cursor-mcp/oauth/callback2', registered),
    ).toBeNull();
    expect(matchRedirectUri('cursor://other/oauth/callback', registered)).toBeNull();
  });

  it('names where the browser returns: a host for the web, the scheme (with its authority) for an app', () => {
    expect(redirectTarget('https://claude.ai/api/mcp/auth_callback')).toEqual({
      target: 'claude.ai',
      app: false,
    });
    expect(redirectTarget('http://127.0.0.1:3000/callback')).toEqual({
      target: '127.0.0.1:3000',
      app: false,
    });
    expect(redirectTarget('cursor://anysphere.cursor-mcp/oauth/callback')).toEqual({
      target: 'cursor://anysphere.cursor-mcp',
      app: true,
    });
    expect(redirectTarget('com.example.app:/oauth2redirect')).toEqual({
      target: 'com.example.app:',
      app: true,
    });
  });
});
