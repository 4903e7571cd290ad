import { createServer, type Server } from 'node:http';

import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { startWebSession } from '../../../core/auth/webSessions.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';
import { type AsHarness, asHarness, pkce, RESOURCE } from './harness.ts';

/**
 * The consent page in Chromium, reached as a person reaches it: from the app's site (another
 * site than Exhale's, here `localhost` against Exhale on `127.0.0.1`), so that the browser's
 * SameSite=Strict session cookie is left off the page's GET but sent with its same-site POST.
 */
describe('the consent page in a browser', () => {
  let browser: Browser;
  let app: Server;
  /** The app's site: a page linking to the consent page, and the callback. */
  let appUrl: string;
  let linkTo = '';
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true });
    app = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      if (req.url?.startsWith('/launch'))
        res.end(`<a id="go" href="${linkTo.replace(/&/g, '&amp;')}">Connect</a>`);
      else res.end('<p>back in the app</p>');
    });
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    const where = app.address();
    appUrl = `http://localhost:${where && typeof where === 'object' ? where.port : 0}`;
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    app?.closeAllConnections();
    await new Promise<void>((resolve) => app?.close(() => resolve()));
  });

  let h: TestHousehold;
  let as: AsHarness;
  let exhaleUrl: string;
  let context: BrowserContext;
  beforeEach(async () => {
    h = await createTestHousehold();
    as = asHarness(h.core);
    exhaleUrl = await as.listen();
    context = await browser.newContext({ locale: 'en-US' });
  });
  afterEach(async () => {
    await context.close();
    await as.close();
    await h.close();
  });

  /** Ana signed in on this browser, as the Mini App's sign-in leaves her. */
  async function signInAna(): Promise<void> {
    const session = await h.db.knex.transaction((trx) =>
      startWebSession(trx, {
        id: 'wss_ana',
        householdId: h.householdId,
        memberId: h.ownerId,
        userAgent: null,
        now: h.clock.now,
      }),
    );
    await context.addCookies([
      {
        name: 'exhale_session',
        value: session.token,
        url: exhaleUrl,
        httpOnly: true,
        sameSite: 'Strict',
      },
    ]);
  }

  async function authorizeUrl(): Promise<string> {
    const { client_id } = await as.register({
      client_name: 'Launcher',
      redirect_uris: [`${appUrl}/callback`],
    });
    const query = new URLSearchParams({
      response_type: 'code',
      client_id,
      redirect_uri: `${appUrl}/callback`,
      state: 's',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      resource: RESOURCE,
      scope: 'read write',
    });
    return `${exhaleUrl}/oauth/authorize?${query.toString()}`;
  }

  /** Whether each request to the consent page carried the session cookie, in order. */
  function cookiesSent(page: Page): () => Promise<Array<{ method: string; session: boolean }>> {
    const sent: Array<Promise<{ method: string; session: boolean }>> = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(`${exhaleUrl}/oauth/authorize`)) return;
      sent.push(
        request.allHeaders().then((headers) => ({
          method: request.method(),
          session: (headers.cookie ?? '').includes('exhale_session='),
        })),
      );
    });
    return () => Promise.all(sent);
  }

  const grants = async () => (await h.db.knex('oauth_grants').pluck('member_id')) as string[];

  it('arriving from the app’s site while signed in, connects the member whose code is typed, never the signed-in one', async () => {
    const bea = await h.addMember('Bea');
    await signInAna();
    linkTo = await authorizeUrl();
    const page = await context.newPage();
    const sent = cookiesSent(page);
    await page.goto(`${appUrl}/launch`);
    await Promise.all([page.waitForURL('**/oauth/authorize**'), page.click('#go')]);
    // Reached from another site: the page was shown without the session, so it asks for a code.
    expect(await page.locator('input[name=connect_code]').count()).toBe(1);

    await page.fill('input[name=connect_code]', 'JUNK-JUNK');
    await Promise.all([page.waitForLoadState('load'), page.click('button[value=allow]')]);
    expect(await page.locator('.err').textContent()).toBe('That code is not right.');
    expect(await grants()).toEqual([]);

    await page.fill('input[name=connect_code]', await as.connectCode(bea));
    await Promise.all([page.waitForURL(`${appUrl}/callback**`), page.click('button[value=allow]')]);
    expect(new URL(page.url()).searchParams.get('code')).toMatch(/^exc_/);
    expect(await grants()).toEqual([bea.memberId]);
    // The scenario as it happens: GET without the cookie, each POST with it.
    expect(await sent()).toEqual([
      { method: 'GET', session: false },
      { method: 'POST', session: true },
      { method: 'POST', session: true },
    ]);
  });

  it('opened on Exhale’s own site while signed in, connects the signed-in member with Allow alone', async () => {
    await signInAna();
    const page = await context.newPage();
    const sent = cookiesSent(page);
    await page.goto(await authorizeUrl());
    expect(await page.locator('input[name=connect_code]').count()).toBe(0);
    await Promise.all([page.waitForURL(`${appUrl}/callback**`), page.click('button[value=allow]')]);
    expect(await grants()).toEqual([h.ownerId]);
    expect(await sent()).toEqual([
      { method: 'GET', session: true },
      { method: 'POST', session: true },
    ]);
  });
});
