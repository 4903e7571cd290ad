import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type Actor, memberActor, newcomerActor } from '../../../core/kernel/actor.ts';
import { Core } from '../../../core/kernel/core.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import type { AuditRow } from '../../../core/store/repos/audit.ts';
import { changesOf } from '../../../core/store/repos/audit.ts';
import { canonicalRow, type Row, sameRow } from '../../../core/store/tracked.ts';
import { openSharedTestDatabase, type SharedTestDatabase } from '../../helpers/sharedDatabase.ts';
import { TEST_NOW } from '../../helpers/testCore.ts';

/**
 * Two cores on two connections of one database, as two `exhale` processes (or the server and the
 * CLI) are: their writes to the same rows interleave for real.
 */
describe('tracked writes from two connections at once', () => {
  let shared: SharedTestDatabase;
  let a: Core<typeof catalog>;
  let b: Core<typeof catalog>;
  let owner: Actor;
  let householdId: string;

  beforeEach(async () => {
    shared = await openSharedTestDatabase();
    const clock = () => new Date(TEST_NOW);
    a = new Core({ db: shared.open(), catalog, clock });
    b = new Core({ db: shared.open(), catalog, clock });
    const created = await a.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Shared home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      language: 'en',
      owner_name: 'Ana',
    });
    householdId = created.output.household.id;
    owner = memberActor(
      { id: created.output.member.id, household_id: householdId, role: 'owner', language: 'en' },
      'cli',
    );
  });
  afterEach(async () => shared.close());

  const create = (name: string) =>
    a.invoke('create_subscription', owner, {
      name,
      amount: '9.99',
      first_charge_date: '2026-01-05',
    });

  async function entries(): Promise<AuditRow[]> {
    return (await a.db
      .knex('audit_entries')
      .where({ household_id: householdId })
      .orderBy('seq', 'asc')) as AuditRow[];
  }

  async function current(table: string, id: string): Promise<Row | null> {
    const row = (await a.db.knex(table).where({ id }).first()) as Row | undefined;
    return row ? canonicalRow(row) : null;
  }

  it('records every change with the row as it was when that transaction changed it, and undo restores exactly', async () => {
    const first = await create('Netflix');
    const second = await create('Spotify');
    const ids = [first.output.id, second.output.id];
    // Rounds of four updates of two shared rows at the same moment, each setting another field.
    for (let round = 0; round < 8; round += 1) {
      const results = await Promise.allSettled([
        a.invoke('update_subscription', owner, { id: ids[0], notes: `notes ${round}` }),
        b.invoke('update_subscription', owner, { id: ids[0], vendor: `vendor ${round}` }),
        a.invoke('update_subscription', owner, { id: ids[1], url: `https://x.test/${round}` }),
        b.invoke('update_subscription', owner, { id: ids[1], notes: `other ${round}` }),
      ]);
      expect(results.filter((r) => r.status === 'rejected')).toEqual([]);
    }

    // Every change's "before" is the previous change's "after" of that row.
    const lastAfter = new Map<string, Row | null>();
    const stale: string[] = [];
    for (const entry of await entries()) {
      for (const change of changesOf(entry)) {
        const key = `${change.table}:${change.id}`;
        if (lastAfter.has(key) && !sameRow(lastAfter.get(key) ?? null, change.before))
          stale.push(`${entry.op} ${entry.id} ${key}`);
        lastAfter.set(key, change.after);
      }
    }
    expect(stale).toEqual([]);

    // Undoing the entries newest first puts each row back exactly as its "before" says.
    const updates = (await entries()).filter((e) => e.op === 'update_subscription').reverse();
    for (const entry of updates.slice(0, 12)) {
      await a.invoke('undo', owner, { ids: [entry.id] });
      for (const change of changesOf(entry))
        expect(await current(change.table, change.id)).toEqual(change.before);
    }
  });

  it('lets either of two changes made at the same moment be undone without touching the other', async () => {
    const subs = [];
    for (const name of ['Netflix', 'Spotify', 'Disney+', 'Max', 'Prime', 'Apple TV'])
      subs.push((await create(name)).output.id);
    // One pair per subscription, all at once: one sets the notes, the other the vendor.
    const pairs = await Promise.all(
      subs.map(async (id) => {
        const [notes, vendor] = await Promise.all([
          a.invoke('update_subscription', owner, { id, notes: 'family plan' }),
          b.invoke('update_subscription', owner, { id, vendor: 'Vendor Inc.' }),
        ]);
        return { id, notes, vendor };
      }),
    );
    const seqOf = async (id: string | null) =>
      ((await a.db.knex('audit_entries').where({ id }).first('seq')) as { seq: number }).seq;
    for (const { id, notes, vendor } of pairs) {
      const notesFirst = (await seqOf(notes.auditId)) < (await seqOf(vendor.auditId));
      const [first, last] = notesFirst ? [notes, vendor] : [vendor, notes];
      await a.invoke('undo', owner, { ids: [last.auditId ?? ''] });
      // The change made first is still in effect, and can be undone in its turn.
      const view = await a.invoke('get_subscription', owner, { id });
      expect(view.output).toMatchObject(
        notesFirst
          ? { notes: 'family plan', vendor: null }
          : { notes: null, vendor: 'Vendor Inc.' },
      );
      await a.invoke('undo', owner, { ids: [first.auditId ?? ''] });
      const back = await a.invoke('get_subscription', owner, { id });
      expect(back.output).toMatchObject({ notes: null, vendor: null });
    }
  });
});
