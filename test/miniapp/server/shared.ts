import pg from 'pg';

import { memberActor, newcomerActor, type Actor } from '../../../core/kernel/actor.ts';
import { Core } from '../../../core/kernel/core.ts';
import type { EventBus } from '../../../core/kernel/events.ts';
import { PostgresEventBus } from '../../../core/kernel/pgEventBus.ts';
import { SqliteEventBus } from '../../../core/kernel/sqliteEventBus.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import { openSharedTestDatabase, type SharedTestDatabase } from '../../helpers/sharedDatabase.ts';
import { TEST_NOW } from '../../helpers/testCore.ts';

/**
 * Two Cores on one database, as two processes have, each with the bus bot/runtime.ts gives it:
 * on PostgreSQL a PostgresEventBus (LISTEN/NOTIFY), on a SQLite file a SqliteEventBus (the file's
 * commits watched).
 */
export interface TwoCores {
  shared: SharedTestDatabase;
  a: Core<typeof catalog>;
  b: Core<typeof catalog>;
  householdId: string;
  ownerOn(core: 'a' | 'b'): Actor;
  close(): Promise<void>;
}

export async function twoCores(): Promise<TwoCores> {
  const shared = await openSharedTestDatabase();
  const buses: Array<PostgresEventBus | SqliteEventBus> = [];
  const busFor = (name: string, dbIndex: number, db: Core['db']): EventBus => {
    if (shared.dialect !== 'postgres') {
      const watching = new SqliteEventBus({ db, log: () => undefined });
      buses.push(watching);
      return watching;
    }
    const bus = new PostgresEventBus({
      db,
      connect: () =>
        new pg.Client({
          connectionString: shared.url,
          application_name: `${name}_${shared.schema}_${dbIndex}`,
        }),
    });
    buses.push(bus);
    return bus;
  };
  const dbA = shared.open();
  const dbB = shared.open();
  const clock = () => new Date(TEST_NOW);
  const a = new Core({ db: dbA, catalog, clock, bus: busFor('a', 0, dbA) });
  const b = new Core({ db: dbB, catalog, clock, bus: busFor('b', 1, dbB) });
  for (const bus of buses) await bus.start();
  const created = await a.invoke('create_household', newcomerActor('cli', 'en'), {
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
  return {
    shared,
    a,
    b,
    householdId: created.output.household.id,
    ownerOn: () => owner,
    async close() {
      for (const bus of buses) await bus.close();
      await shared.close();
    },
  };
}
