import { memberActor, newcomerActor } from '../core/kernel/actor.ts';
import pg from 'pg';

import { Core } from '../core/kernel/core.ts';
import { PostgresEventBus } from '../core/kernel/pgEventBus.ts';
import { addDays } from '../core/domain/dates.ts';
import { catalog } from '../core/ops/catalog.ts';
import { seedSyntheticRates, syntheticSubscription } from '../test/helpers/synthetic.ts';
import { type Database, migrate, openDatabase } from '../core/store/connection.ts';
import type { Actor } from '../core/kernel/actor.ts';

export interface BenchHousehold {
  db: Database;
  core: Core<typeof catalog>;
  owner: Actor;
  householdId: string;
  subscriptionIds: string[];
  close(): Promise<void>;
}

/**
 * A household of `subscriptions` subscriptions and `charges` recorded charges, bulk-inserted (the
 * way an import of years of history would leave it), on an in-memory SQLite database unless a
 * PostgreSQL URL is given.
 */
export async function largeHousehold(options: {
  subscriptions: number;
  charges: number;
  url?: string;
  /** A SQLite file instead of memory (it must not exist yet), with its read pool. */
  sqliteFile?: string;
}): Promise<BenchHousehold> {
  const db = openDatabase(
    options.url ? { url: options.url } : { sqliteFile: options.sqliteFile ?? ':memory:' },
  );
  await migrate(db);
  // On PostgreSQL, the bus a server listens on (bot/runtime.ts): the read cache serves reads only
  // while it hears every process's changes, as in production.
  const bus = options.url ? await listeningBus(db, options.url) : undefined;
  const core = new Core({ db, catalog, ...(bus ? { bus } : {}) });
  const created = await core.invoke('create_household', newcomerActor('cli', 'en'), {
    name: 'Bench',
    currency: 'EUR',
    time_zone: 'Europe/Madrid',
    owner_name: 'Ana',
  });
  const householdId = created.output.household.id;
  const owner = memberActor({ ...created.output.member, household_id: householdId }, 'cli');
  const now = new Date().toISOString();
  // Ids unique to this household, so a run on a PostgreSQL database an earlier run left behind
  // does not collide with that run's rows.
  const tag = householdId.replace(/^hh_/, '');
  const categories = Array.from({ length: 12 }, (_, i) => ({
    id: `cat_b${tag}_${i}`,
    household_id: householdId,
    name: `Category ${i}`,
    color: null,
    created_at: now,
  }));
  await db.knex.batchInsert('categories', categories, 200);
  const subs = Array.from({ length: options.subscriptions }, (_, i) =>
    syntheticSubscription(i, {
      householdId,
      memberId: () => owner.memberId ?? '',
      now,
      idPrefix: `sub_b${tag}_`,
      categoryId: (n) => `cat_b${tag}_${n % 12}`,
    }),
  );
  await db.knex.batchInsert('subscriptions', subs, 200);
  const charges = [];
  for (let i = 0; i < options.charges; i += 1) {
    const sub = subs[i % subs.length];
    if (!sub) break;
    const k = Math.floor(i / subs.length);
    charges.push({
      id: `chg_b${tag}_${i}`,
      household_id: householdId,
      subscription_id: sub.id,
      due_date: addDays(sub.first_charge_date, 30 * k),
      status: k % 9 === 8 ? 'skipped' : 'paid',
      amount_minor: sub.amount_minor,
      currency: sub.currency,
      note: null,
      recorded_at: now,
    });
  }
  await db.knex.batchInsert('charges', charges, 500);
  await seedSyntheticRates(db.knex);
  return {
    db,
    core,
    owner,
    householdId,
    subscriptionIds: subs.map((s) => s.id),
    close: async () => {
      await bus?.close();
      await db.close();
    },
  };
}

async function listeningBus(db: Database, url: string): Promise<PostgresEventBus> {
  const bus = new PostgresEventBus({ db, connect: () => new pg.Client({ connectionString: url }) });
  await bus.start();
  return bus;
}
