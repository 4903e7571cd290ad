import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  AWAIT_TTL_MS,
  BUTTON_TTL_MS,
  claimButtons,
  clearAwaiting,
  isAwaiting,
  loadPress,
  purgeExpiredFlows,
  releaseButtons,
  saveButtons,
  setAwaiting,
  takeAwaiting,
} from '../../../core/chat/flows.ts';
import type { Database } from '../../../core/store/connection.ts';
import { openTestDatabase, TEST_NOW } from '../../helpers/testCore.ts';

const owner = { householdId: 'hh_1', memberId: 'mem_1', who: 'telegram:42' };
const later = (ms: number): Date => new Date(TEST_NOW.getTime() + ms);

describe('chat flows on the typed repository', () => {
  let db: Database;
  beforeEach(async () => {
    db = await openTestDatabase();
  });
  afterEach(async () => db.close());

  it("stores a message's buttons as one typed row and resolves a press to its action", async () => {
    await saveButtons(
      db,
      owner,
      [{ t: 'cancel' }, { t: 'paid', sub: 'sub_1', due: '2026-03-02' }],
      TEST_NOW,
      'btn_1',
    );
    expect(await loadPress(db, 'btn_1.1', TEST_NOW)).toEqual({
      ok: true,
      flowId: 'btn_1',
      action: { t: 'paid', sub: 'sub_1', due: '2026-03-02' },
      owner,
      used: false,
    });
    expect(await loadPress(db, 'btn_1.7', TEST_NOW)).toEqual({ ok: false, reason: 'invalid' });
    expect(await loadPress(db, 'btn_1.0', later(BUTTON_TTL_MS))).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('lets one press use a message, and gives the buttons back when its action failed', async () => {
    await saveButtons(db, owner, [{ t: 'cancel' }], TEST_NOW, 'btn_1');
    expect(await claimButtons(db, 'btn_1', TEST_NOW)).toBe(true);
    expect(await claimButtons(db, 'btn_1', TEST_NOW)).toBe(false);
    expect(await loadPress(db, 'btn_1.0', TEST_NOW)).toMatchObject({ used: true });
    await releaseButtons(db, 'btn_1');
    expect(await claimButtons(db, 'btn_1', TEST_NOW)).toBe(true);
  });

  it('answers a press on buttons whose stored actions no longer parse as expired', async () => {
    await db.knex('flows').insert({
      id: 'btn_old',
      household_id: 'hh_1',
      member_id: 'mem_1',
      kind: 'button',
      payload: JSON.stringify({ actions: [{ t: 'launch_rocket' }], who: null }),
      expires_at: later(60_000).toISOString(),
      used_at: null,
      created_at: TEST_NOW.toISOString(),
    });
    expect(await loadPress(db, 'btn_old.0', TEST_NOW)).toEqual({ ok: false, reason: 'expired' });
  });

  it('keeps one typed question per conversation, taken once', async () => {
    await setAwaiting(db, 'tg:1', owner, { t: 'add_line' }, TEST_NOW);
    await setAwaiting(db, 'tg:1', owner, { t: 'onboard_tz', currency: 'EUR' }, TEST_NOW);
    expect(await isAwaiting(db, 'tg:1', TEST_NOW)).toBe(true);
    expect(await takeAwaiting(db, 'tg:1', TEST_NOW)).toEqual({ t: 'onboard_tz', currency: 'EUR' });
    expect(await takeAwaiting(db, 'tg:1', TEST_NOW)).toBeNull();
    expect(await isAwaiting(db, 'tg:1', TEST_NOW)).toBe(false);

    await setAwaiting(db, 'tg:1', owner, { t: 'add_line' }, TEST_NOW);
    expect(await isAwaiting(db, 'tg:1', later(AWAIT_TTL_MS))).toBe(false);
    expect(await takeAwaiting(db, 'tg:1', later(AWAIT_TTL_MS))).toBeNull();

    await setAwaiting(db, 'tg:1', owner, { t: 'add_line' }, TEST_NOW);
    await clearAwaiting(db, 'tg:1');
    expect(await isAwaiting(db, 'tg:1', TEST_NOW)).toBe(false);
  });

  it('forgets a question whose stored payload no longer parses', async () => {
    await setAwaiting(db, 'tg:1', owner, { t: 'add_line' }, TEST_NOW);
    await db.knex('flows').where({ kind: 'await' }).update({ payload: '{"t":"add_rocket"}' });
    expect(await takeAwaiting(db, 'tg:1', TEST_NOW)).toBeNull();
    expect(await isAwaiting(db, 'tg:1', TEST_NOW)).toBe(false);
  });

  it('purges expired rows of every kind, keeping pending changes for their Undo window', async () => {
    await saveButtons(db, owner, [{ t: 'cancel' }], TEST_NOW, 'btn_1');
    await setAwaiting(db, 'tg:1', owner, { t: 'add_line' }, TEST_NOW);
    await db.knex('flows').insert({
      id: 'prp_1',
      household_id: 'hh_1',
      member_id: 'mem_1',
      kind: 'pending_assistant',
      payload: '{}',
      expires_at: TEST_NOW.toISOString(),
      used_at: null,
      created_at: TEST_NOW.toISOString(),
    });
    expect(await purgeExpiredFlows(db, later(AWAIT_TTL_MS))).toBe(1);
    expect(await purgeExpiredFlows(db, later(BUTTON_TTL_MS))).toBe(2);
    expect(Number((await db.knex('flows').count({ n: '*' }))[0]?.n)).toBe(0);
  });
});
