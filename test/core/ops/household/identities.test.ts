import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type Actor, memberActor, newcomerActor } from '../../../../core/kernel/actor.ts';
import { Core } from '../../../../core/kernel/core.ts';
import { catalog } from '../../../../core/ops/catalog.ts';
import type { Database } from '../../../../core/store/connection.ts';
import { openSharedDatabases } from '../../../bot/harness.ts';
import { createTestHousehold, TEST_NOW, type TestHousehold } from '../../../helpers/testCore.ts';

const fromTelegram = (id: string, slack?: string): Actor =>
  newcomerActor('telegram', 'en', slack ? { telegram: id, slack } : { telegram: id });

const newHousehold = {
  name: 'Casa',
  currency: 'EUR',
  time_zone: 'Europe/Madrid',
  owner_name: 'Ana',
};

async function identities(db: Database): Promise<unknown[]> {
  return db
    .knex('member_identities')
    .orderBy([{ column: 'member_id' }, { column: 'position' }])
    .select('id', 'member_id', 'platform', 'external_id', 'position');
}

describe('member identities through ops', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('records the Telegram account a household is created from, in the audit entry too', async () => {
    const preview = await h.core.invoke('create_household', fromTelegram('1001'), newHousehold, {
      dryRun: true,
    });
    expect(preview.changes.map((c) => c.table)).toEqual([
      'households',
      'members',
      'member_identities',
    ]);
    expect(await identities(h.db)).toEqual([]);
    const created = await h.core.invoke('create_household', fromTelegram('1001'), newHousehold);
    const { member } = created.output;
    expect(await identities(h.db)).toEqual([
      {
        id: 'telegram:1001',
        member_id: member.id,
        platform: 'telegram',
        external_id: '1001',
        position: 0,
      },
    ]);
    const entry = (await h.db.knex('audit_entries').where({ id: created.auditId }).first()) as {
      changes: string;
    };
    expect(JSON.parse(entry.changes)).toContainEqual(
      expect.objectContaining({ table: 'member_identities', id: 'telegram:1001', before: null }),
    );
  });

  it('undoes a join with the account it recorded, which can then join again', async () => {
    const invite = await h.core.invoke('create_invite', h.owner, {});
    const joined = await h.core.invoke('join_household', fromTelegram('2002'), {
      code: invite.output.code,
      name: 'Luis',
    });
    expect(await identities(h.db)).toHaveLength(1);
    await h.core.invoke('undo', h.owner, { ids: [joined.auditId ?? ''] });
    expect(await identities(h.db)).toEqual([]);
    expect(await h.db.knex('members').where({ id: joined.output.member.id })).toEqual([]);
    const again = await h.core.invoke('create_invite', h.owner, {});
    await h.core.invoke('join_household', fromTelegram('2002'), {
      code: again.output.code,
      name: 'Luis',
    });
    expect(await identities(h.db)).toHaveLength(1);
  });

  it('records every account someone joins with, in order, and refuses an account that already has a member', async () => {
    const invite = await h.core.invoke('create_invite', h.owner, {});
    const joined = await h.core.invoke('join_household', fromTelegram('2002', 'U0LUIS'), {
      code: invite.output.code,
      name: 'Luis',
    });
    const luis = joined.output.member.id;
    expect(await identities(h.db)).toEqual([
      {
        id: 'telegram:2002',
        member_id: luis,
        platform: 'telegram',
        external_id: '2002',
        position: 0,
      },
      {
        id: 'slack:U0LUIS',
        member_id: luis,
        platform: 'slack',
        external_id: 'U0LUIS',
        position: 1,
      },
    ]);
    const again = await h.core.invoke('create_invite', h.owner, {});
    await expect(
      h.core.invoke('join_household', fromTelegram('2002'), {
        code: again.output.code,
        name: 'Luis',
      }),
    ).rejects.toMatchObject({ code: 'conflict', key: 'errors.already_in_household' });
    await expect(
      h.core.invoke('create_household', fromTelegram('9', 'U0LUIS'), newHousehold),
    ).rejects.toMatchObject({ code: 'conflict', key: 'errors.already_in_household' });
    expect(await identities(h.db)).toHaveLength(2);
  });

  it('removes a removed member’s accounts, and undo puts them back', async () => {
    const invite = await h.core.invoke('create_invite', h.owner, {});
    const joined = await h.core.invoke('join_household', fromTelegram('2002'), {
      code: invite.output.code,
      name: 'Luis',
    });
    const removed = await h.core.invoke('remove_member', h.owner, { id: joined.output.member.id });
    expect(await identities(h.db)).toEqual([]);
    await h.core.invoke('undo', h.owner, { ids: [removed.auditId ?? ''] });
    expect(await identities(h.db)).toEqual([
      {
        id: 'telegram:2002',
        member_id: joined.output.member.id,
        platform: 'telegram',
        external_id: '2002',
        position: 0,
      },
    ]);
  });

  it('refuses to undo a removal once the account belongs to someone new', async () => {
    const invite = await h.core.invoke('create_invite', h.owner, {});
    const joined = await h.core.invoke('join_household', fromTelegram('2002'), {
      code: invite.output.code,
      name: 'Luis',
    });
    const removed = await h.core.invoke('remove_member', h.owner, { id: joined.output.member.id });
    await h.core.invoke('create_household', fromTelegram('2002'), newHousehold);
    await expect(
      h.core.invoke('undo', h.owner, { ids: [removed.auditId ?? ''] }),
    ).rejects.toMatchObject({ code: 'undo_conflict' });
  });

  it('orders a member’s channels with update_member, undoably; unknown platforms are refused, missing ones ignored', async () => {
    const invite = await h.core.invoke('create_invite', h.owner, {});
    const joined = await h.core.invoke('join_household', fromTelegram('2002', 'U0LUIS'), {
      code: invite.output.code,
      name: 'Luis',
    });
    const luisId = joined.output.member.id;
    const luis = memberActor(
      { id: luisId, household_id: h.householdId, role: 'member', language: 'en' },
      'telegram',
    );
    const order = async (): Promise<string[]> =>
      h.db
        .knex('member_identities')
        .where({ member_id: luisId })
        .orderBy('position')
        .pluck('platform');
    const changed = await h.core.invoke('update_member', luis, { id: luisId, channels: ['slack'] });
    expect(await order()).toEqual(['slack', 'telegram']);
    expect(changed.changes.map((c) => c.table)).toEqual(['member_identities', 'member_identities']);
    // Already in that order: nothing to record.
    const same = await h.core.invoke('update_member', luis, {
      id: luisId,
      channels: ['slack', 'telegram'],
    });
    expect(same.changes).toEqual([]);
    await h.core.invoke('undo', luis, { ids: [changed.auditId ?? ''] });
    expect(await order()).toEqual(['telegram', 'slack']);
    // The owner has no Slack account: listing it changes nothing.
    const owner = await h.core.invoke('update_member', h.owner, {
      id: h.ownerId,
      channels: ['slack'],
    });
    expect(owner.changes).toEqual([]);
    await expect(
      h.core.invoke('update_member', luis, { id: luisId, channels: ['slack', 'slack'] }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(
      // A platform the schema does not know, as an agent might send it: the cast only gets it past the compiler.
      h.core.invoke('update_member', luis, { id: luisId, channels: ['fax' as 'slack'] }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
  });
});

describe('member identities with two processes on one database', () => {
  let shared: Awaited<ReturnType<typeof openSharedDatabases>>;
  let cores: Array<Core<typeof catalog>>;
  beforeEach(async () => {
    shared = await openSharedDatabases(2);
    cores = shared.dbs.map((db) => new Core({ db, catalog, clock: () => new Date(TEST_NOW) }));
  });
  afterEach(async () => shared.close());

  it('gives an account one member when two processes create a household for it at once', async () => {
    const outcomes = await Promise.allSettled(
      cores.map((core) => core.invoke('create_household', fromTelegram('1001'), newHousehold)),
    );
    const fulfilled = outcomes.filter((o) => o.status === 'fulfilled');
    const rejected = outcomes.filter((o) => o.status === 'rejected');
    expect(fulfilled).toHaveLength(1);
    expect(rejected.map((r) => r.reason)).toEqual([
      expect.objectContaining({ code: 'conflict', key: 'errors.already_in_household' }),
    ]);
    const db = shared.dbs[0]!;
    expect(Number((await db.knex('households').count({ n: '*' }))[0]?.n)).toBe(1);
    expect(await identities(db)).toHaveLength(1);
  });

  it('keeps one consistent order when two processes reorder a member’s channels at once', async () => {
    const created = await cores[0]!.invoke(
      'create_household',
      fromTelegram('1001', 'U0ANA'),
      newHousehold,
    );
    const { household, member } = created.output;
    const ana = memberActor(
      { id: member.id, household_id: household.id, role: 'owner', language: 'en' },
      'telegram',
    );
    const outcomes = await Promise.allSettled([
      cores[0]!.invoke('update_member', ana, { id: member.id, channels: ['slack', 'telegram'] }),
      cores[1]!.invoke('update_member', ana, { id: member.id, channels: ['telegram', 'slack'] }),
    ]);
    expect(outcomes.some((o) => o.status === 'fulfilled')).toBe(true);
    const positions = (await shared.dbs[0]!.knex('member_identities')
      .where({ member_id: member.id })
      .orderBy('position')
      .select('platform', 'position')) as Array<{ platform: string; position: number }>;
    // Whichever wins, the result is one of the two orders, never a mix (0 and 1, each once).
    expect(positions.map((p) => Number(p.position))).toEqual([0, 1]);
    expect([
      ['slack', 'telegram'],
      ['telegram', 'slack'],
    ]).toContainEqual(positions.map((p) => p.platform));
  });
});
