import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import knex from 'knex';

import { type Actor, memberActor, newcomerActor } from '../../../core/kernel/actor.ts';
import { Core } from '../../../core/kernel/core.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import { type Database, migrate, openDatabase } from '../../../core/store/connection.ts';
import { TEST_NOW } from '../../helpers/testCore.ts';

/** An agent over MCP acting for a member with one token (no token row needed: nothing checks it here). */
export function agentOf(member: Actor, tokenId: string): Actor {
  return {
    ...member,
    kind: 'agent',
    scope: 'write',
    channel: 'mcp',
    agent: { name: `Agent ${tokenId}`, tokenId },
  };
}

export interface TwoProcesses {
  /** Two cores over one database, each with its own connections: two `exhale` processes. */
  first: Core<typeof catalog>;
  second: Core<typeof catalog>;
  clock: { now: Date };
  owner: Actor;
  close(): Promise<void>;
}

/**
 * Two processes sharing one database: a SQLite file opened twice, or one PostgreSQL schema reached
 * through two pools. A household with its owner Ana is created through the first.
 */
export async function twoProcesses(): Promise<TwoProcesses> {
  const url = process.env.EXHALE_TEST_DATABASE_URL;
  let one: Database;
  let two: Database;
  let cleanup: () => Promise<void>;
  if (url) {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = knex({ client: 'pg', connection: url });
    await admin.raw(`create schema ${schema}`);
    await admin.destroy();
    const open = (): Database => {
      const k = knex({
        client: 'pg',
        connection: url,
        searchPath: [schema],
        pool: { min: 0, max: 4 },
      });
      return { knex: k, dialect: 'postgres', close: () => k.destroy() };
    };
    one = open();
    two = open();
    cleanup = async () => {
      await two.close();
      await one.knex.raw(`drop schema ${schema} cascade`);
      await one.close();
    };
  } else {
    const dir = path.join(tmpdir(), `exhale-pending-${randomBytes(6).toString('hex')}`);
    const file = path.join(dir, 'exhale.sqlite');
    one = openDatabase({ sqliteFile: file });
    two = openDatabase({ sqliteFile: file });
    cleanup = async () => {
      await two.close();
      await one.close();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  await migrate(one);
  const clock = { now: new Date(TEST_NOW) };
  let n = 0;
  // One id sequence for both processes, as random ids would never collide either.
  const newId = (prefix: string): string => `${prefix}_${String((n += 1)).padStart(6, '0')}`;
  const core = (db: Database) => new Core({ db, catalog, clock: () => new Date(clock.now), newId });
  const first = core(one);
  const second = core(two);
  const created = await first.invoke('create_household', newcomerActor('cli', 'en'), {
    name: 'Test home',
    currency: 'EUR',
    time_zone: 'Europe/Madrid',
    language: 'en',
    owner_name: 'Ana',
  });
  const { household, member } = created.output;
  const owner = memberActor(
    { id: member.id, household_id: household.id, role: 'owner', language: 'en' },
    'telegram',
  );
  return {
    first,
    second,
    clock,
    owner,
    close: cleanup,
  };
}
