import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { OpError } from '../../../../core/errors/index.ts';
import { type Actor, memberActor, newcomerActor } from '../../../../core/kernel/actor.ts';
import { Core } from '../../../../core/kernel/core.ts';
import type { EventBus } from '../../../../core/kernel/events.ts';
import { PostgresEventBus } from '../../../../core/kernel/pgEventBus.ts';
import { catalog } from '../../../../core/ops/catalog.ts';
import { pendingChanges } from '../../../../core/pending/index.ts';
import { dumpDatabase } from '../../../helpers/dump.ts';
import {
  openSharedTestDatabase,
  type SharedTestDatabase,
} from '../../../helpers/sharedDatabase.ts';
import {
  createTestHousehold,
  TEST_DIALECT,
  TEST_NOW,
  type TestHousehold,
} from '../../../helpers/testCore.ts';

async function failure(promise: Promise<unknown>): Promise<OpError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof OpError)) throw new Error(`expected an OpError, got ${String(error)}`);
  return error;
}

async function monthly(core: Core<typeof catalog>, actor: Actor, name: string, amount: string) {
  const { output } = await core.invoke('create_subscription', actor, {
    name,
    amount,
    cycle: { unit: 'month' },
    first_charge_date: '2025-12-03',
  });
  return output.id;
}

describe(`mark_charges_paid (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  let netflix: string;
  let spotify: string;
  beforeEach(async () => {
    h = await createTestHousehold();
    netflix = await monthly(h.core, h.owner, 'Netflix', '15.99');
    spotify = await monthly(h.core, h.owner, 'Spotify', '10.99');
  });
  afterEach(async () => h.close());

  const batch = () => ({
    charges: [
      { subscription_id: netflix, charge_date: '2026-01-03', amount: '16.20' },
      { subscription_id: spotify, charge_date: '2026-01-03', amount: '10.99' },
      { subscription_id: netflix, charge_date: '2026-02-03', amount: '14.80', currency: 'USD' },
    ],
  });

  it('marks every charge paid with its actual amount, in its currency', async () => {
    const { output } = await h.core.invoke('mark_charges_paid', h.owner, batch());
    expect(output.count).toBe(3);
    const charges = await h.core.invoke('list_charges', h.owner, {
      from: '2026-01-01',
      to: '2026-02-28',
      status: ['paid'],
    });
    expect(
      charges.output.items.map(
        (c) => `${c.subscription_name} ${c.due_date} ${c.amount} ${c.currency}`,
      ),
    ).toEqual([
      'Netflix 2026-01-03 16.20 EUR',
      'Spotify 2026-01-03 10.99 EUR',
      'Netflix 2026-02-03 14.80 USD',
    ]);
  });

  it('previews with a dry run and is undone as one entry', async () => {
    const before = await dumpDatabase(h.db, { except: ['audit_entries'] });
    const preview = await h.core.invoke('mark_charges_paid', h.owner, batch(), { dryRun: true });
    expect(preview.changes.map((c) => c.table)).toEqual(['charges', 'charges', 'charges']);
    expect(await dumpDatabase(h.db, { except: ['audit_entries'] })).toBe(before);
    const { auditId } = await h.core.invoke('mark_charges_paid', h.owner, batch());
    await h.core.invoke('undo', h.owner, { ids: [auditId ?? ''] });
    expect(await dumpDatabase(h.db, { except: ['audit_entries'] })).toBe(before);
  });

  it('writes nothing when one charge of the batch fails mid-way: already paid, skipped, off the series or hidden', async () => {
    await h.core.invoke('mark_charge_paid', h.owner, {
      subscription_id: spotify,
      due_date: '2026-01-03',
    });
    await h.core.invoke('skip_charge', h.owner, {
      subscription_id: netflix,
      due_date: '2026-02-03',
    });
    const bea = await h.addMember('Bea');
    const gym = (
      await h.core.invoke('create_subscription', bea, {
        name: 'Gym',
        amount: '30',
        first_charge_date: '2025-12-15',
        private: true,
      })
    ).output.id;
    const before = await dumpDatabase(h.db);
    const first = { subscription_id: netflix, charge_date: '2026-01-03', amount: '15.99' };
    const paid = await failure(
      h.core.invoke('mark_charges_paid', h.owner, {
        charges: [first, { subscription_id: spotify, charge_date: '2026-01-03', amount: '10.99' }],
      }),
    );
    expect(paid.code).toBe('conflict');
    expect(paid.render('en')).toBe(
      'The charge of Spotify on Sat, 3 Jan 2026 is already recorded as paid. Nothing was marked paid: reconcile again to see what is left.',
    );
    const skipped = await failure(
      h.core.invoke('mark_charges_paid', h.owner, {
        charges: [first, { subscription_id: netflix, charge_date: '2026-02-03', amount: '15.99' }],
      }),
    );
    expect(skipped.render('es')).toBe(
      'El cobro de Netflix del mar, 3 feb 2026 consta como omitido. No se marcó nada como pagado: concilia otra vez para ver lo que falta.',
    );
    const offSeries = await failure(
      h.core.invoke('mark_charges_paid', h.owner, {
        charges: [first, { subscription_id: spotify, charge_date: '2026-01-04', amount: '10.99' }],
      }),
    );
    expect(offSeries.code).toBe('invalid_input');
    const hidden = await failure(
      h.core.invoke('mark_charges_paid', h.owner, {
        charges: [first, { subscription_id: gym, charge_date: '2026-01-15', amount: '30' }],
      }),
    );
    expect(hidden.code).toBe('not_found');
    const twice = await failure(
      h.core.invoke('mark_charges_paid', h.owner, { charges: [first, first] }),
    );
    // The date as a reader writes dates, in each language.
    expect(twice.render('en')).toBe(
      'The same charge (Sat, 3 Jan 2026) is listed twice. Nothing was marked paid.',
    );
    expect(twice.render('es')).toContain('(sáb, 3 ene 2026)');
    expect(await dumpDatabase(h.db)).toBe(before);
  });
});

describe(`mark_charges_paid from two processes on one database (${TEST_DIALECT})`, () => {
  let shared: SharedTestDatabase;
  const buses: PostgresEventBus[] = [];
  let a: Core<typeof catalog>;
  let b: Core<typeof catalog>;
  let ana: Actor;
  let bea: Actor;
  let netflix: string;
  let spotify: string;

  async function processCore(): Promise<Core<typeof catalog>> {
    const db = shared.open();
    let bus: EventBus | undefined;
    if (shared.dialect === 'postgres') {
      const listening = new PostgresEventBus({
        db,
        connect: () => new pg.Client({ connectionString: shared.url }),
        log: () => undefined,
      });
      await listening.start();
      buses.push(listening);
      bus = listening;
    }
    return new Core({ db, catalog, bus, clock: () => TEST_NOW });
  }

  beforeEach(async () => {
    shared = await openSharedTestDatabase();
    a = await processCore();
    b = await processCore();
    const created = await a.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      owner_name: 'Ana',
    });
    const hh = created.output.household.id;
    ana = memberActor(
      { ...created.output.member, household_id: hh, role: 'owner', language: 'en' },
      'telegram',
    );
    const invite = await a.invoke('create_invite', ana, {});
    const joined = await b.invoke('join_household', newcomerActor('cli', 'en'), {
      code: invite.output.code,
      name: 'Bea',
    });
    bea = memberActor(
      { ...joined.output.member, household_id: hh, role: 'member', language: 'en' },
      'telegram',
    );
    netflix = await monthly(a, ana, 'Netflix', '15.99');
    spotify = await monthly(a, ana, 'Spotify', '10.99');
  });
  afterEach(async () => {
    for (const bus of buses.splice(0)) await bus.close();
    await shared.close();
  });

  const batch = () => ({
    charges: [
      { subscription_id: netflix, charge_date: '2026-01-03', amount: '15.99' },
      { subscription_id: spotify, charge_date: '2026-01-03', amount: '10.99' },
    ],
  });
  const paidRows = () => a.db.knex('charges').where({ status: 'paid' }).count({ n: '*' }).first();

  it('applies the batch once when two members confirm it at the same time', async () => {
    const serviceA = pendingChanges(a, { surface: 'chat', ttlMs: 60_000 });
    const serviceB = pendingChanges(b, { surface: 'chat', ttlMs: 60_000 });
    const op = a.op('mark_charges_paid');
    const fromAna = await serviceA.prepare(ana, op, batch());
    const fromBea = await serviceB.prepare(bea, b.op('mark_charges_paid'), batch());
    const results = await Promise.allSettled([
      serviceA.confirm(ana, fromAna.change.id),
      serviceB.confirm(bea, fromBea.change.id),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected');
    expect(refused?.status === 'rejected' && refused.reason instanceof OpError).toBe(true);
    expect(Number((await paidRows())?.n)).toBe(2);
    // The same change confirmed from both processes at once: applied once.
    const applied = results.find((r) => r.status === 'fulfilled');
    if (applied?.status !== 'fulfilled') throw new Error('neither confirmation applied');
    await a.invoke('undo', ana, { ids: [applied.value.result.auditId ?? ''] });
    const again = await serviceA.prepare(ana, op, batch());
    const twice = await Promise.allSettled([
      serviceA.confirm(ana, again.change.id),
      serviceB.confirm(ana, again.change.id),
    ]);
    expect(twice.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(Number((await paidRows())?.n)).toBe(2);
  });

  it('never records a charge twice when mark_charge_paid marks one of the batch at the same time', async () => {
    const results = await Promise.allSettled([
      a.invoke('mark_charges_paid', ana, batch()),
      b.invoke('mark_charge_paid', bea, {
        subscription_id: spotify,
        due_date: '2026-01-03',
        amount: '11.00',
      }),
    ]);
    const [whole, single] = results;
    expect(single?.status).toBe('fulfilled');
    const rows = (await a.db
      .knex('charges')
      .where({ subscription_id: spotify, due_date: '2026-01-03' })
      .select('amount_minor')) as Array<{ amount_minor: number }>;
    expect(rows).toHaveLength(1);
    const netflixRows = await a.db.knex('charges').where({ subscription_id: netflix });
    if (whole?.status === 'fulfilled') {
      // The batch went first; the single mark replaced its Spotify record.
      expect(Number(rows[0]?.amount_minor)).toBe(1100);
      expect(netflixRows).toHaveLength(1);
    } else {
      // The single mark went first: the batch is refused whole, Netflix included.
      const reason: unknown = whole?.reason;
      expect(reason instanceof OpError && reason.code).toBe('conflict');
      expect(netflixRows).toHaveLength(0);
    }
  });
});
