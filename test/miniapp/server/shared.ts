import pg from 'pg';

import { memberActor, newcomerActor, type Actor } from '../../../core/kernel/actor.ts';
import { Core } from '../../../core/kernel/core.ts';
import { type EventBus, InMemoryEventBus } from '../../../core/kernel/events.ts';
import { PostgresEventBus } from '../../../core/kernel/pgEventBus.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import { openSharedTestDatabase, type SharedTestDatabase } from '../../helpers/sharedDatabase.ts';
import { TEST_NOW } from '../../helpers/testCore.ts';

/**
 * Two Cores on one database, as two processes have: on PostgreSQL each with its own
 * PostgresEventBus (LISTEN/NOTIFY, as bot/runtime.ts gives them); on SQLite (one server process
 * per file) one in-memory bus, as two surfaces of that process share it.
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
  const buses: PostgresEventBus[] = [];
  const busFor = (name: string, dbIndex: number, db: Core['db']): EventBus => {
    if (shared.dialect !== 'postgres') return memory;
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
  const memory = new InMemoryEventBus();
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
