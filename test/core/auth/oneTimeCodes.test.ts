import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { OpError } from '../../../core/errors/index.ts';
import { type CodePurpose, redeemCode } from '../../../core/auth/oneTimeCodes.ts';
import { hashSecret } from '../../../core/auth/secrets.ts';
import { SIGN_IN_CODE_LENGTH } from '../../../core/auth/signIn.ts';
import { memberActor, newcomerActor } from '../../../core/kernel/actor.ts';
import { Core } from '../../../core/kernel/core.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import { TEST_NOW, createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';
import { openSharedTestDatabase, type SharedTestDatabase } from '../../helpers/sharedDatabase.ts';

const redeem = (
  h: { db: TestHousehold['db'] },
  code: string,
  now: Date,
  purpose: CodePurpose = 'web_sign_in',
) =>
  redeemCode(h.db, {
    code,
    purpose,
    length: SIGN_IN_CODE_LENGTH,
    now,
    then: async (_trx, redeemed) => redeemed.memberId,
  });

describe('one-time codes', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('issues a sign-in code through create_sign_in_link and stores only its hash', async () => {
    const link = (await h.core.invoke('create_sign_in_link', h.owner, {})).output;
    expect(link.code).toMatch(/^[0-9a-hjkmnp-tv-z]{24}$/);
    expect(link.path).toBe(`/app/signin?code=${link.code}`);
    expect(link.expires_at).toBe(new Date(TEST_NOW.getTime() + 10 * 60_000).toISOString());
    const rows = await h.db.knex('one_time_codes').select();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      purpose: 'web_sign_in',
      code_hash: hashSecret(link.code),
      member_id: h.ownerId,
      used_at: null,
    });
    expect(JSON.stringify(await h.db.knex('audit_entries').select())).not.toContain(link.code);
  });

  it('lets a code in once, for its own purpose only', async () => {
    const { code } = (await h.core.invoke('create_sign_in_link', h.owner, {})).output;
    expect(await redeem(h, code, h.clock.now, 'connect')).toEqual({
      ok: false,
      reason: 'unknown',
    });
    const first = await redeem(h, code, h.clock.now);
    expect(first).toMatchObject({
      ok: true,
      value: h.ownerId,
      code: { householdId: h.householdId },
    });
    expect(await redeem(h, code, h.clock.now)).toEqual({ ok: false, reason: 'used' });
  });

  it('refuses a code after its 10 minutes, and one never issued', async () => {
    const { code } = (await h.core.invoke('create_sign_in_link', h.owner, {})).output;
    const late = new Date(TEST_NOW.getTime() + 10 * 60_000);
    expect(await redeem(h, code, late)).toEqual({ ok: false, reason: 'expired' });
    expect(await redeem(h, 'a'.repeat(24), TEST_NOW)).toEqual({ ok: false, reason: 'unknown' });
    expect(await redeem(h, 'not a code', TEST_NOW)).toEqual({ ok: false, reason: 'unknown' });
    const almost = new Date(TEST_NOW.getTime() + 10 * 60_000 - 1);
    expect(await redeem(h, code, almost)).toMatchObject({ ok: true });
  });

  it('keeps the code usable when what redeeming gives fails to be written', async () => {
    const { code } = (await h.core.invoke('create_sign_in_link', h.owner, {})).output;
    await expect(
      redeemCode(h.db, {
        code,
        purpose: 'web_sign_in',
        length: SIGN_IN_CODE_LENGTH,
        now: h.clock.now,
        then: async () => {
          throw new Error('disk full');
        },
      }),
    ).rejects.toThrow('disk full');
    expect(await redeem(h, code, h.clock.now)).toMatchObject({ ok: true });
  });

  it('refuses the code of a member who has left', async () => {
    const luis = await h.addMember('Luis', 'es');
    const { code } = (await h.core.invoke('create_sign_in_link', luis, {})).output;
    await h.core.invoke('remove_member', h.owner, { id: luis.memberId });
    expect(await redeem(h, code, h.clock.now)).toMatchObject({ ok: false });
  });

  it('a dry run issues nothing; a real link is audited without Undo (it expires by itself)', async () => {
    const dry = await h.core.invoke('create_sign_in_link', h.owner, {}, { dryRun: true });
    expect(await redeem(h, dry.output.code, h.clock.now)).toEqual({ ok: false, reason: 'unknown' });
    const real = await h.core.invoke('create_sign_in_link', h.owner, {});
    const activity = await h.core.invoke('list_activity', h.owner, {}, { surface: 'web' });
    expect(activity.output.items.find((i) => i.id === real.auditId)).toMatchObject({
      op: 'create_sign_in_link',
      can_undo: false,
    });
    const refused = await h.core.invoke('undo', h.owner, { ids: [real.auditId ?? ''] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(OpError);
    if (!(refused instanceof OpError)) throw new Error('no OpError');
    expect(refused.render('en')).toContain('not a change to the household');
    expect(refused.render('es')).toContain('no es un cambio del hogar');
    // Still the one-time link it was: it signs in once.
    expect(await redeem(h, real.output.code, h.clock.now)).toMatchObject({ ok: true });
  });
});

describe('one-time codes across connections', () => {
  let shared: SharedTestDatabase;
  beforeEach(async () => {
    shared = await openSharedTestDatabase();
  });
  afterEach(async () => shared.close());

  it('lets exactly one of two redeems at once in, from two connections (two processes)', async () => {
    const core = new Core({ db: shared.open(), catalog, clock: () => new Date(TEST_NOW) });
    const created = await core.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      owner_name: 'Ana',
    });
    const owner = memberActor(
      {
        id: created.output.member.id,
        household_id: created.output.household.id,
        role: 'owner',
        language: 'en',
      },
      'web',
    );
    for (let round = 0; round < 5; round += 1) {
      const { code } = (await core.invoke('create_sign_in_link', owner, {})).output;
      const [a, b] = [{ db: shared.open() }, { db: shared.open() }];
      const results = await Promise.all([redeem(a, code, TEST_NOW), redeem(b, code, TEST_NOW)]);
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual([{ ok: false, reason: 'used' }]);
    }
  });
});
