import { describe, expect, it } from 'vitest';

import {
  ANA_TG,
  api,
  openInTelegram,
  screenshot,
  settled,
  signInitData,
  useMiniApp,
} from '../helpers/miniapp.ts';

/**
 * Two things a newcomer met, in Chromium against a real `exhale` (the demo household, Ana the
 * owner, on a server with a Telegram bot and no Slack): Settings → Invite says what the code is
 * and how each kind of person uses it, for the ways that work here; a web sign-in link is audited
 * but shown in Activity without Undo (create_sign_in_link is notUndoable).
 */
const app = useMiniApp();

describe('invites and sign-in links (Chromium)', () => {
  it('explains an invite: what it is, the web link, the Telegram link and the code for the bot; no Slack here', async () => {
    const initData = signInitData(app.hh.telegram.token, ANA_TG);
    const page = await openInTelegram(
      app.browser,
      app.hh.server.url,
      initData,
      'light',
      '/app/settings',
    );
    await settled(page, 'settings');
    await page.click('[data-testid="invite"]');
    const hint = page.locator('[data-testid="invite-hint"]');
    await hint.waitFor();
    const text = (await hint.textContent()) ?? '';
    expect(text).toContain('lets one person join this household');
    expect(text).toMatch(/In any browser: .*\/app\/join\?code=join_\w+/);
    expect(text).toMatch(/https:\/\/t\.me\/exhale_test_bot\?start=join_\w+/);
    expect(text).toMatch(/\/start join_\w+/);
    expect(text).toContain('QR code');
    // Slack is not connected to this server: no instruction that cannot work.
    expect(text).not.toContain('/exhale start');
    await hint.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-invite-hint-en-light');
    await page.context().close();
  }, 60_000);

  it('lists a sign-in link in Activity without Undo', async () => {
    const initData = signInitData(app.hh.telegram.token, ANA_TG);
    await api(app.hh.server.url, initData, 'create_sign_in_link');
    const page = await openInTelegram(
      app.browser,
      app.hh.server.url,
      initData,
      'light',
      '/app/activity',
    );
    await settled(page, 'activity');
    const row = page.locator('[data-testid="activity-row"][data-op="create_sign_in_link"]').first();
    await row.waitFor();
    expect(await row.locator('[data-testid="undo-entry"]').count()).toBe(0);
    // Other changes keep theirs.
    expect(await page.locator('[data-testid="undo-entry"]').count()).toBeGreaterThan(0);
    await page.context().close();
  }, 60_000);
});
