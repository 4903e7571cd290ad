import pg from 'pg';

import { Core } from '../../core/kernel/core.ts';
import type { EventBus } from '../../core/kernel/events.ts';
import { PostgresEventBus } from '../../core/kernel/pgEventBus.ts';
import { SqliteEventBus } from '../../core/kernel/sqliteEventBus.ts';
import { catalog } from '../../core/ops/catalog.ts';
import type { Database } from '../../core/store/connection.ts';
import type { SharedTestDatabase } from './sharedDatabase.ts';
import { TEST_NOW } from './testCore.ts';

export type AppCore = Core<typeof catalog>;

/** A Core as one `exhale` process has it over a shared database. */
export interface ProcessCore {
  core: AppCore;
  db: Database;
  bus: EventBus;
}

/**
 * Makes Cores as separate processes have them on one shared database: each with its own pool and
 * its own bus hearing the others, as `exhale` starts one (PostgreSQL: LISTEN/NOTIFY; SQLite: the
 * file's commits watched). `close()` stops the buses (the database itself is closed by
 * `shared.close()`).
 */
export function processCores(shared: () => SharedTestDatabase): {
  open(): Promise<ProcessCore>;
  close(): Promise<void>;
} {
  const buses: Array<PostgresEventBus | SqliteEventBus> = [];
  return {
    async open() {
      const db = shared().open();
      if (shared().dialect === 'sqlite') {
        const bus = new SqliteEventBus({ db, log: () => undefined });
        await bus.start();
        buses.push(bus);
        return { core: new Core({ db, catalog, bus, clock: () => TEST_NOW }), db, bus };
      }
      const bus = new PostgresEventBus({
        db,
        connect: () => new pg.Client({ connectionString: shared().url }),
        log: () => undefined,
      });
      await bus.start();
      buses.push(bus);
      return { core: new Core({ db, catalog, bus, clock: () => TEST_NOW }), db, bus };
    },
    async close() {
      for (const bus of buses.splice(0)) await bus.close();
    },
  };
}

/**
 * Resolves once `bus` delivers a change event of `householdId` (bounded, never a sleep); null on
 * SQLite, where another process's commit is seen without any event.
 */
export function changeHeard(
  shared: SharedTestDatabase,
  bus: EventBus,
  householdId: string,
  ms = 5_000,
): Promise<void> | null {
  return shared.dialect === 'postgres' ? busHeard(bus, householdId, ms) : null;
}

/** Resolves once `bus` delivers a change event of `householdId` (bounded, never a sleep). */
export function busHeard(bus: EventBus, householdId: string, ms = 5_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no change event within the bound')), ms);
    const off = bus.subscribe((event) => {
      if (event.householdId !== householdId) return;
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}
