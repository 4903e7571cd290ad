import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { calendarFeedOwner } from '../../../../core/auth/calendarFeeds.ts';
import {
  authenticateSession,
  SESSION_TTL_MS,
  startWebSession,
} from '../../../../core/auth/webSessions.ts';
import { surfaceOps } from '../../../../core/kernel/surface.ts';
import { catalog } from '../../../../core/ops/catalog.ts';
import { createTestHousehold, TEST_NOW, type TestHousehold } from '../../../helpers/testCore.ts';

describe('web sessions and calendar feeds', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  const start = (memberId = h.ownerId, id = h.core.newId('wss')) =>
    h.db.knex.transaction((trx) =>
      startWebSession(trx, {
        id,
        householdId: h.householdId,
        memberId,
        userAgent: 'Mozilla/5.0 Firefox/140',
        now: h.clock.now,
      }),
    );

  it('a session acts as its member in person on the web channel, until it is ended', async () => {
    const session = await start();
    const check = await authenticateSession(h.db, session.token, h.clock.now);
    expect(check).toEqual({
      ok: true,
      sessionId: session.id,
      actor: expect.objectContaining({ memberId: h.ownerId, channel: 'web', kind: 'member' }),
    });
    const listed = await h.core.invoke('list_web_sessions', h.owner, {}, { surface: 'web' });
    expect(listed.output.items).toEqual([
      {
        id: session.id,
        created_at: TEST_NOW.toISOString(),
        last_used_at: TEST_NOW.toISOString(),
        expires_at: session.expiresAt,
        user_agent: 'Mozilla/5.0 Firefox/140',
        // As a person names it in the list of signed-in browsers.
        browser: 'Firefox',
        os: null,
      },
    ]);
    const ended = await h.core.invoke(
      'end_web_session',
      h.owner,
      { id: session.id },
      { surface: 'web' },
    );
    // Named, so its confirm card can say which browser it signs out.
    expect(ended.output.name).toBe('Firefox');
    expect(await authenticateSession(h.db, session.token, h.clock.now)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect((await h.core.invoke('list_web_sessions', h.owner, {})).output.items).toEqual([]);
  });

  it('a session expires after 30 days, and a malformed or unknown cookie is invalid', async () => {
    const session = await start();
    const later = new Date(TEST_NOW.getTime() + SESSION_TTL_MS);
    expect(await authenticateSession(h.db, session.token, later)).toEqual({
      ok: false,
      reason: 'expired',
    });
    expect(await authenticateSession(h.db, 'exs_nope', TEST_NOW)).toEqual({
      ok: false,
      reason: 'invalid',
    });
    expect(await authenticateSession(h.db, `exs_${'a'.repeat(32)}`, TEST_NOW)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it("a member cannot see or end another member's session", async () => {
    const luis = await h.addMember('Luis', 'es');
    const session = await start(luis.memberId ?? '');
    expect((await h.core.invoke('list_web_sessions', h.owner, {})).output.items).toEqual([]);
    await expect(
      h.core.invoke('end_web_session', h.owner, { id: session.id }),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    expect((await authenticateSession(h.db, session.token, h.clock.now)).ok).toBe(true);
  });

  it('one calendar feed per member: a new URL stops the old one, revoking stops it, undo brings it back', async () => {
    const first = (await h.core.invoke('create_calendar_feed', h.owner, {})).output;
    expect(first.path).toBe(`/cal/${first.token}.ics`);
    expect(await calendarFeedOwner(h.db, first.token)).toMatchObject({ memberId: h.ownerId });
    const second = (await h.core.invoke('create_calendar_feed', h.owner, {})).output;
    expect(second.replaced).toBe(1);
    expect(await calendarFeedOwner(h.db, first.token)).toBeNull();
    const revoked = await h.core.invoke('revoke_calendar_feed', h.owner, {});
    expect(revoked.output.revoked).toBe(1);
    expect(await calendarFeedOwner(h.db, second.token)).toBeNull();
    await h.core.invoke('undo', h.owner, { ids: [revoked.auditId] });
    expect(await calendarFeedOwner(h.db, second.token)).toMatchObject({ feedId: second.id });
    expect(await calendarFeedOwner(h.db, 'cal_short')).toBeNull();
  });

  it('agents and the assistant are never offered a sign-in link or a feed URL', () => {
    for (const surface of ['mcp', 'assistant'] as const) {
      const names = surfaceOps(catalog, surface).map((op) => op.name);
      expect(names).not.toContain('create_sign_in_link');
      expect(names).not.toContain('create_calendar_feed');
    }
    const web = surfaceOps(catalog, 'web').map((op) => op.name);
    expect(web).toEqual(
      expect.arrayContaining(['create_sign_in_link', 'list_web_sessions', 'end_web_session']),
    );
  });
});
