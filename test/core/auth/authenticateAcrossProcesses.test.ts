import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';

import { authenticateToken } from '../../../core/auth/authenticate.ts';
import { type Actor, newcomerActor } from '../../../core/kernel/actor.ts';
import { Core } from '../../../core/kernel/core.ts';
import type { EventBus } from '../../../core/kernel/events.ts';
import { PostgresEventBus } from '../../../core/kernel/pgEventBus.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import { openSharedTestDatabase, type SharedTestDatabase } from '../../helpers/sharedDatabase.ts';
import { TEST_NOW } from '../../helpers/testCore.ts';

type AppCore = Core<typeof catalog>;

/**
 * Two processes on one database (each its own pool and, on PostgreSQL, its own listening bus):
 * what one revokes or removes is refused by the other on its very next request, with no wait for
 * any event, although the other keeps who may act in its read cache (SQLite).
 */
describe('who may act, across two processes on one database', () => {
  let shared: SharedTestDatabase;
  const buses: PostgresEventBus[] = [];
  let a: AppCore;
  let b: AppCore;
  let owner: Actor;

  async function processCore(): Promise<AppCore> {
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
    const created = await b.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      owner_name: 'Ana',
    });
    owner = {
      kind: 'member',
      householdId: created.output.household.id,
      memberId: created.output.member.id,
      role: 'owner',
      scope: 'trusted',
      channel: 'cli',
      locale: 'en',
    };
  });
  afterEach(async () => {
    for (const bus of buses.splice(0)) await bus.close();
    await shared.close();
  });

  it('refuses a token revoked by the other process on the very next request', async () => {
    const token = (await b.invoke('create_token', owner, { name: 'Claude', scope: 'read' })).output;
    const agent = await authenticateToken(a.db, token.token, TEST_NOW);
    if (!agent) throw new Error('the new token was refused');
    // Twice: the second answer may come from A's cache, and must still be right afterwards.
    expect(await authenticateToken(a.db, token.token, TEST_NOW)).not.toBeNull();
    await a.invoke('get_household', agent, {});
    await b.invoke('revoke_token', owner, { id: token.id });
    expect(await authenticateToken(a.db, token.token, TEST_NOW)).toBeNull();
  });

  it('refuses a member removed by the other process on their very next op', async () => {
    const invite = await b.invoke('create_invite', owner, {});
    const joined = await b.invoke('join_household', newcomerActor('cli', 'en'), {
      code: invite.output.code,
      name: 'Luis',
    });
    const luis: Actor = { ...owner, memberId: joined.output.member.id, role: 'member' };
    const token = (await b.invoke('create_token', luis, { name: 'Claude', scope: 'read' })).output;
    await a.invoke('get_household', luis, {});
    await a.invoke('get_household', luis, {}); // from A's cache on SQLite
    expect(await authenticateToken(a.db, token.token, TEST_NOW)).not.toBeNull();
    await b.invoke('remove_member', owner, { id: luis.memberId });
    await expect(a.invoke('get_household', luis, {})).rejects.toMatchObject({ code: 'forbidden' });
    expect(await authenticateToken(a.db, token.token, TEST_NOW)).toBeNull();
  });

  it('sees a household renamed by the other process on the next read', async () => {
    await a.invoke('get_household', owner, {});
    await b.invoke('update_household', owner, { name: 'Casa' });
    expect((await a.invoke('get_household', owner, {})).output.name).toBe('Casa');
  });
});
