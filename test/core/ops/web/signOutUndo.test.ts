import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { authenticateSession, startWebSession } from '../../../../core/auth/webSessions.ts';
import { OpError } from '../../../../core/errors/index.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';

/**
 * Ending a web session is the one web change whose undo is refused: undoing it would give a
 * browser back a session its member ended on purpose (a lost phone, a shared computer). It is
 * still an activity entry; every other change keeps its Undo.
 */
describe('undoing a sign-out', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  const start = () =>
    h.db.knex.transaction((trx) =>
      startWebSession(trx, {
        id: h.core.newId('wss'),
        householdId: h.householdId,
        memberId: h.ownerId,
        userAgent: 'Mozilla/5.0 Firefox/140',
        now: h.clock.now,
      }),
    );

  async function refusal(run: Promise<unknown>): Promise<OpError> {
    const error: unknown = await run.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(OpError);
    if (!(error instanceof OpError)) throw new Error('no OpError');
    return error;
  }

  it('is refused with a sentence in the reader’s language, and the session stays ended', async () => {
    const session = await start();
    const ended = await h.core.invoke(
      'end_web_session',
      h.owner,
      { id: session.id },
      { surface: 'web' },
    );
    const activity = await h.core.invoke('list_activity', h.owner, {}, { surface: 'web' });
    const entry = activity.output.items.find((i) => i.id === ended.auditId);
    expect(entry).toMatchObject({ can_undo: false });

    const error = await refusal(
      h.core.invoke('undo', h.owner, { ids: [ended.auditId ?? ''] }, { surface: 'web' }),
    );
    expect(error.code).toBe('forbidden');
    expect(error.render('en')).toContain('stays signed out');
    expect(error.render('es')).toContain('sigue sin sesión');
    expect(await authenticateSession(h.db, session.token, h.clock.now)).toEqual({
      ok: false,
      reason: 'invalid',
    });
  });

  it('refuses a batch that includes one, changing nothing of the rest', async () => {
    const session = await start();
    const renamed = await h.core.invoke('update_household', h.owner, { name: 'Casa' });
    const ended = await h.core.invoke('end_web_session', h.owner, { id: session.id });
    await refusal(
      h.core.invoke('undo', h.owner, { ids: [renamed.auditId ?? '', ended.auditId ?? ''] }),
    );
    expect((await h.core.invoke('get_household', h.owner, {})).output.name).toBe('Casa');
    expect(await authenticateSession(h.db, session.token, h.clock.now)).toMatchObject({
      ok: false,
    });
    // The other change is still undone on its own.
    await h.core.invoke('undo', h.owner, { ids: [renamed.auditId ?? ''] });
    expect((await h.core.invoke('get_household', h.owner, {})).output.name).toBe('Test home');
  });

  it('is not the member’s “undo my last change”: that skips nothing and refuses the sign-out', async () => {
    const session = await start();
    await h.core.invoke('end_web_session', h.owner, { id: session.id });
    const error = await refusal(h.core.invoke('undo', h.owner, {}));
    expect(error.render('en')).toContain('stays signed out');
    expect(await authenticateSession(h.db, session.token, h.clock.now)).toMatchObject({
      ok: false,
    });
  });
});
