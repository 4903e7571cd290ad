import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';

import { newcomerActor } from '../../../core/kernel/actor.ts';
import { Core } from '../../../core/kernel/core.ts';
import type { ChangeEvent, CoreEvent } from '../../../core/kernel/events.ts';
import { MAX_NOTIFY_BYTES, PostgresEventBus } from '../../../core/kernel/pgEventBus.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import { openSharedTestDatabase, type SharedTestDatabase } from '../../helpers/sharedDatabase.ts';

/** Resolves with the first event a bus delivers that matches, or rejects after `ms` (a bound, not a wait). */
function nextEvent(
  bus: PostgresEventBus,
  match: (e: CoreEvent) => boolean,
  ms = 5_000,
): Promise<CoreEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no event within the bound')), ms);
    const off = bus.subscribe((e) => {
      if (!match(e)) return;
      clearTimeout(timer);
      off();
      resolve(e);
    });
  });
}

function event(auditId: string, entities = [{ table: 'subscriptions', id: 's1' }]): ChangeEvent {
  return {
    kind: 'changed',
    householdId: 'h1',
    auditId,
    op: 'update_subscription',
    actor: { kind: 'agent', memberId: 'm1', channel: 'mcp', agentName: 'Claude' },
    entities,
  };
}

describe.runIf(process.env.EXHALE_TEST_DATABASE_URL)(
  'PostgresEventBus: change events across processes on one PostgreSQL database',
  () => {
    let shared: SharedTestDatabase;
    let a: PostgresEventBus;
    let b: PostgresEventBus;
    let logOfB: string[];
    const clients = (name: string) => () =>
      new pg.Client({ connectionString: shared.url, application_name: name });

    beforeEach(async () => {
      shared = await openSharedTestDatabase();
      a = new PostgresEventBus({ db: shared.open(), connect: clients(`bus_a_${shared.schema}`) });
      logOfB = [];
      b = new PostgresEventBus({
        db: shared.open(),
        connect: clients(`bus_b_${shared.schema}`),
        log: (line) => logOfB.push(line),
      });
      await a.start();
      await b.start();
    });

    afterEach(async () => {
      await a.close();
      await b.close();
      await shared.close();
    });

    it('delivers an event published by one process to the other, and to its own listeners once', async () => {
      const seenByA: string[] = [];
      a.subscribe((e) => seenByA.push(e.auditId));
      const atB = nextEvent(b, (e) => e.auditId === 'au1');
      a.publish(event('au1'));
      expect(await atB).toEqual(event('au1'));
      await a.flush();
      // A marker sent after A's NOTIFY committed reaches A after A's own echo would have: once the
      // marker is in, A has had every chance to deliver au1 twice.
      const marker = nextEvent(a, (e) => e.auditId === 'marker');
      b.publish(event('marker'));
      await marker;
      expect(seenByA).toEqual(['au1', 'marker']);
    });

    it('sends an event too big for NOTIFY as its audit entry id, rebuilt by the receiver', async () => {
      const core = new Core({ db: shared.open(), catalog, bus: a });
      const fromA = nextEvent(a, (e) => e.op === 'create_household');
      await core.invoke('create_household', newcomerActor('cli', 'en'), {
        name: 'Home',
        currency: 'EUR',
        time_zone: 'Europe/Madrid',
        language: 'en',
        owner_name: 'Ana',
      });
      const real = await fromA;
      const padding = Array.from({ length: 400 }, (_, i) => ({
        table: 'subscriptions',
        id: `x${i}`,
      }));
      const big: ChangeEvent = { ...real, entities: [...real.entities, ...padding] };
      expect(Buffer.byteLength(JSON.stringify(big))).toBeGreaterThan(MAX_NOTIFY_BYTES);
      const atB = nextEvent(b, (e) => e.auditId === real.auditId);
      a.publish(big);
      const rebuilt = await atB;
      // Rebuilt from the audit entry: the rows the entry records, not what the sender added.
      expect(rebuilt).toMatchObject({ householdId: real.householdId, op: 'create_household' });
      expect(rebuilt.entities).toEqual(real.entities);
    });

    it('listens again after its connection is cut, and then hears the other process', async () => {
      const again = b.whenListening();
      const admin = new pg.Client({ connectionString: shared.url });
      await admin.connect();
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
        [`bus_b_${shared.schema}`],
      );
      await admin.end();
      await again;
      const atB = nextEvent(b, (e) => e.auditId === 'after');
      a.publish(event('after'));
      expect((await atB).auditId).toBe('after');
      expect(logOfB).toContain('events: the listening connection was lost');
    });

    it('after a reconnection, delivers once the changes committed while it was not listening', async () => {
      // A bus whose reconnections wait for the test to open a gate: the change lands in between.
      let gate: Promise<void> | null = null;
      let open = (): void => undefined;
      const gated = new PostgresEventBus({
        db: shared.open(),
        log: () => undefined,
        connect: () => {
          const client = new pg.Client({
            connectionString: shared.url,
            application_name: `bus_gated_${shared.schema}`,
          });
          const waitFor = gate;
          if (waitFor) {
            const connect = client.connect.bind(client);
            client.connect = async () => {
              await waitFor;
              return connect();
            };
          }
          return client;
        },
      });
      await gated.start();
      try {
        const heard: string[] = [];
        gated.subscribe((e) => heard.push(e.auditId));
        gate = new Promise<void>((resolve) => (open = resolve));
        const admin = new pg.Client({ connectionString: shared.url });
        await admin.connect();
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
          [`bus_gated_${shared.schema}`],
        );
        await admin.end();
        // Written and announced by another process while the gated bus is disconnected.
        const core = new Core({ db: shared.open(), catalog, bus: a });
        const { auditId } = await core.invoke('create_household', newcomerActor('cli', 'en'), {
          name: 'Home',
          currency: 'EUR',
          time_zone: 'Europe/Madrid',
          language: 'en',
          owner_name: 'Ana',
        });
        await a.flush();
        const listening = gated.whenListening();
        open();
        await listening;
        expect(heard).toContain(auditId);
        // A later change arrives by NOTIFY as usual, and nothing is delivered twice.
        const later = nextEvent(gated, (e) => e.op === 'create_invite');
        const owner = await shared.open().knex('members').first();
        const { memberActor } = await import('../../../core/kernel/actor.ts');
        await core.invoke(
          'create_invite',
          memberActor(
            { id: owner.id, household_id: owner.household_id, role: 'owner', language: 'en' },
            'cli',
          ),
          {},
        );
        await later;
        expect(heard.filter((id) => id === auditId)).toHaveLength(1);
        expect(new Set(heard).size).toBe(heard.length);
      } finally {
        await gated.close();
      }
    });

    it('does not hear another schema of the same database (another installation)', async () => {
      const other = await openSharedTestDatabase();
      const c = new PostgresEventBus({
        db: other.open(),
        connect: () => new pg.Client({ connectionString: other.url }),
      });
      await c.start();
      const heard: string[] = [];
      c.subscribe((e) => heard.push(e.auditId));
      a.publish(event('mine'));
      await a.flush();
      const marker = nextEvent(c, (e) => e.auditId === 'own');
      const d = new PostgresEventBus({
        db: other.open(),
        connect: () => new pg.Client({ connectionString: other.url }),
      });
      await d.start();
      d.publish(event('own'));
      await marker;
      expect(heard).toEqual(['own']);
      await d.close();
      await c.close();
      await other.close();
    });
  },
);
