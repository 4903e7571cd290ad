import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';

import type { Database } from '../../../../core/store/connection.ts';
import { defineFlow, purgeFlows } from '../../../../core/store/repos/flows.ts';
import { openTestDatabase, TEST_NOW } from '../../../helpers/testCore.ts';

const NOTE = defineFlow({
  kind: 'test_note',
  ttlMs: 60_000,
  payload: z.object({ text: z.string(), count: z.int() }),
});
const KEPT = defineFlow({
  kind: 'test_kept',
  ttlMs: 60_000,
  keepMs: 3_600_000,
  payload: z.object({ text: z.string() }),
});

const at = (ms: number): Date => new Date(TEST_NOW.getTime() + ms);

describe('a typed flows kind (defineFlow)', () => {
  let db: Database;
  beforeEach(async () => {
    db = await openTestDatabase();
  });
  afterEach(async () => db.close());

  const save = (id: string, text = 'hi', now = TEST_NOW) =>
    NOTE.save(db.knex, {
      id,
      householdId: 'hh_1',
      memberId: 'mem_1',
      payload: { text, count: 1 },
      now,
    });

  it('saves a row with its expiry and reads its payload back parsed', async () => {
    const saved = await save('n_1');
    expect(saved).toEqual({
      id: 'n_1',
      householdId: 'hh_1',
      memberId: 'mem_1',
      payload: { text: 'hi', count: 1 },
      createdAt: TEST_NOW.toISOString(),
      expiresAt: at(60_000).toISOString(),
      usedAt: null,
    });
    expect(await NOTE.load(db.knex, 'n_1')).toEqual(saved);
    const row = await db.knex('flows').where({ id: 'n_1' }).first();
    expect(row.kind).toBe('test_note');
    expect(JSON.parse(row.payload)).toEqual({ text: 'hi', count: 1 });
  });

  it('refuses to save a payload its schema rejects', async () => {
    await expect(
      NOTE.save(db.knex, {
        id: 'n_bad',
        householdId: null,
        memberId: null,
        // @ts-expect-error -- the point: a payload of the wrong shape never reaches the table.
        payload: { text: 5, count: 1 },
        now: TEST_NOW,
      }),
    ).rejects.toThrow();
    expect(await db.knex('flows').where({ id: 'n_bad' }).first()).toBeUndefined();
  });

  it('treats a row whose payload does not parse, or that is JSON of nothing, as gone', async () => {
    const raw = (id: string, payload: string) =>
      db.knex('flows').insert({
        id,
        household_id: null,
        member_id: 'mem_1',
        kind: 'test_note',
        payload,
        expires_at: at(60_000).toISOString(),
        used_at: null,
        created_at: TEST_NOW.toISOString(),
      });
    await raw('n_shape', JSON.stringify({ text: 'hi', count: 'one' }));
    await raw('n_json', '{not json');
    expect(await NOTE.load(db.knex, 'n_shape')).toBeNull();
    expect(await NOTE.load(db.knex, 'n_json')).toBeNull();
    expect(await NOTE.recent(db.knex, { memberId: 'mem_1', since: TEST_NOW, limit: 10 })).toEqual(
      [],
    );
  });

  it('finds a row only under its own kind', async () => {
    await save('n_1');
    expect(await KEPT.load(db.knex, 'n_1')).toBeNull();
    expect(await KEPT.claim(db.knex, 'n_1', TEST_NOW)).toBe(false);
    expect(await KEPT.remove(db.knex, 'n_1')).toBe(false);
    expect(await NOTE.load(db.knex, 'n_1')).not.toBeNull();
  });

  it('lets one caller claim a row, until it is released', async () => {
    await save('n_1');
    const claims = await Promise.all([
      NOTE.claim(db.knex, 'n_1', TEST_NOW),
      NOTE.claim(db.knex, 'n_1', TEST_NOW),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await NOTE.load(db.knex, 'n_1'))?.usedAt).toBe(TEST_NOW.toISOString());
    await NOTE.release(db.knex, 'n_1');
    expect((await NOTE.load(db.knex, 'n_1'))?.usedAt).toBeNull();
    expect(await NOTE.claim(db.knex, 'n_1', TEST_NOW)).toBe(true);
  });

  it('claims an expired row only when asked to ignore expiry, and writes a new payload with the claim', async () => {
    await save('n_1');
    const late = at(60_000);
    expect(await NOTE.claim(db.knex, 'n_1', late, { unexpired: true })).toBe(false);
    expect(await NOTE.claim(db.knex, 'n_1', late, { payload: { text: 'decided', count: 2 } })).toBe(
      true,
    );
    expect((await NOTE.load(db.knex, 'n_1'))?.payload).toEqual({ text: 'decided', count: 2 });
  });

  it('settles a payload, replaces a row, and removes only the save it read', async () => {
    await save('n_1');
    await NOTE.settle(db.knex, 'n_1', { text: 'after', count: 3 });
    expect((await NOTE.load(db.knex, 'n_1'))?.payload.text).toBe('after');
    await NOTE.replace(db.knex, {
      id: 'n_1',
      householdId: null,
      memberId: 'mem_1',
      payload: { text: 'again', count: 1 },
      now: at(1_000),
    });
    const replaced = await NOTE.load(db.knex, 'n_1');
    expect(replaced).toMatchObject({ payload: { text: 'again' }, usedAt: null });
    expect(await NOTE.remove(db.knex, 'n_1', { createdAt: TEST_NOW.toISOString() })).toBe(false);
    expect(await NOTE.remove(db.knex, 'n_1', { createdAt: at(1_000).toISOString() })).toBe(true);
    expect(await NOTE.load(db.knex, 'n_1')).toBeNull();
  });

  it("lists a member's recent rows, newest first", async () => {
    await save('n_1', 'first', TEST_NOW);
    await save('n_2', 'second', at(1_000));
    await save('n_3', 'old', at(-10_000));
    const recent = await NOTE.recent(db.knex, { memberId: 'mem_1', since: TEST_NOW, limit: 5 });
    expect(recent.map((r) => r.payload.text)).toEqual(['second', 'first']);
  });

  it('purges every kind at its expiry, and a kept kind only after its keep time too', async () => {
    await save('n_1');
    await KEPT.save(db.knex, {
      id: 'k_1',
      householdId: null,
      memberId: null,
      payload: { text: 'undo me' },
      now: TEST_NOW,
    });
    await db.knex('flows').insert({
      id: 'legacy_1',
      household_id: null,
      member_id: null,
      kind: 'proposal',
      payload: '{}',
      expires_at: at(60_000).toISOString(),
      used_at: null,
      created_at: TEST_NOW.toISOString(),
    });
    expect(await purgeFlows(db.knex, at(59_999), [KEPT])).toBe(0);
    expect(await purgeFlows(db.knex, at(60_000), [KEPT])).toBe(2);
    expect(await KEPT.load(db.knex, 'k_1')).not.toBeNull();
    expect(await purgeFlows(db.knex, at(60_000 + 3_600_000), [KEPT])).toBe(1);
    expect(Number((await db.knex('flows').count({ n: '*' }))[0]?.n)).toBe(0);
  });
});
