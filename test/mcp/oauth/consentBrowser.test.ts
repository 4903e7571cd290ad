import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import { startWebSession } from '../../../core/auth/webSessions.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';
import { type AsHarness, asHarness, pkce, RESOURCE } from './harness.ts';

/** Where the pages' screenshots go, to be looked at (test-output/ is not committed). */
const SCREENSHOTS = fileURLToPath(new URL('../../../test-output/oauth', import.meta.url));

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

  describe('a client name made to spoof the page', () => {
    async function consentFor(name: string, width: number, shot: string): Promise<Page> {
      const { client_id } = await as.register({ client_name: name });
      const query = new URLSearchParams({
        response_type: 'code',
        client_id,
        redirect_uri: 'http://127.0.0.1:3000/callback',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        resource: RESOURCE,
      });
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${exhaleUrl}/oauth/authorize?${query.toString()}`);
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: path.join(SCREENSHOTS, `${shot}.png`), fullPage: true });
      return page;
    }

    /** Left and right of the name, of Exhale's words after it, and of the badge, as laid out. */
    async function titleLayout(page: Page) {
      // Run in the page (a string: this project's TypeScript has no DOM types).
      const measured: unknown = await page.evaluate(`(() => {
        const h1 = document.querySelector('h1');
        const name = h1 && h1.querySelector('bdi');
        const tag = h1 && h1.querySelector('.tag');
        const words = name && name.nextSibling;
        if (!h1 || !name || !tag || !words) return null;
        const range = document.createRange();
        range.selectNodeContents(words);
        const box = (r) => ({ left: Math.round(r.left), right: Math.round(r.right) });
        return {
          name: box(name.getBoundingClientRect()),
          words: box(range.getBoundingClientRect()),
          tag: box(tag.getBoundingClientRect()),
          text: h1.textContent,
        };
      })()`);
      const Box = z.object({ left: z.number(), right: z.number() });
      return z
        .object({ name: Box, words: Box, tag: Box, text: z.string() })
        .nullable()
        .parse(measured);
    }

    it('keeps Exhale’s words and the unverified badge in their order whatever bidi controls the name holds', async () => {
      const page = await consentFor('Acme\u202Eevil\u2066\u200F', 800, 'consent-bidi-name');
      const layout = await titleLayout(page);
      expect(layout?.text).toBe('AConnect Acmeevil to Exhaleunverified');
      // Left to right: the name, " to Exhale", the badge.
      expect(layout?.name.right).toBeLessThanOrEqual(layout?.words.left ?? 0);
      expect(layout?.words.right).toBeLessThanOrEqual(layout?.tag.left ?? 0);
    });

    it('keeps a right-to-left name to itself', async () => {
      const page = await consentFor('تطبيق 2', 800, 'consent-rtl-name');
      const layout = await titleLayout(page);
      expect(layout?.name.right).toBeLessThanOrEqual(layout?.words.left ?? 0);
      expect(layout?.words.right).toBeLessThanOrEqual(layout?.tag.left ?? 0);
    });

    for (const width of [800, 360])
      it(`wraps a 200-character name without a break inside a ${width} px window`, async () => {
        const page = await consentFor('W'.repeat(200), width, `consent-long-name-${width}`);
        const scroll = await page.evaluate('document.documentElement.scrollWidth');
        const client = await page.evaluate('document.documentElement.clientWidth');
        expect(z.number().parse(scroll)).toBeLessThanOrEqual(z.number().parse(client));
      });
  });
});
