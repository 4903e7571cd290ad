import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startScheduler } from '../../../bot/scheduler.ts';
import { authenticateToken } from '../../../core/auth/authenticate.ts';
import { purgeExpiredCredentials } from '../../../core/auth/cleanup.ts';
import { SESSION_TTL_MS, startWebSession } from '../../../core/auth/webSessions.ts';
import { type Actor, newcomerActor } from '../../../core/kernel/actor.ts';
import { Core } from '../../../core/kernel/core.ts';
import { catalog } from '../../../core/ops/catalog.ts';
import { runClaimedJob } from '../../../core/store/jobs.ts';
import { openSharedTestDatabase, type SharedTestDatabase } from '../../helpers/sharedDatabase.ts';
import { TEST_NOW } from '../../helpers/testCore.ts';

const DAY = 86_400_000;
/** A week after the credentials were made: some have expired, some have not. */
const LATER = new Date(TEST_NOW.getTime() + 8 * DAY);

/**
 * The cleanup job removes agent tokens, web sessions and OAuth tokens past their expiry, once
 * across processes: two Cores on one database (a SQLite file, or PostgreSQL) run it at the same
 * moment, and one of them does the work.
 */
describe('the cleanup of expired credentials, across two processes', () => {
  let shared: SharedTestDatabase;
  let a: Core<typeof catalog>;
  let b: Core<typeof catalog>;
  let owner: Actor;

  beforeEach(async () => {
    shared = await openSharedTestDatabase();
    a = new Core({ db: shared.open(), catalog, clock: () => TEST_NOW });
    b = new Core({ db: shared.open(), catalog, clock: () => TEST_NOW });
    const created = await a.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      owner_name: 'Ana',
    });
    const householdId = created.output.household.id;
    const memberId = created.output.member.id;
    owner = {
      kind: 'member',
      householdId,
      memberId,
      role: 'owner',
      scope: 'trusted',
      channel: 'cli',
      locale: 'en',
    };
    const make = async (name: string, days?: number): Promise<void> => {
      const made = await a.invoke('create_token', owner, {
        name,
        scope: 'read',
        ...(days ? { expires_in_days: days } : {}),
      });
      await authenticateToken(a.db, made.output.token, TEST_NOW);
    };
    await make('Week', 7);
    await make('Month', 30);
    await make('CLI');
    await a.db.knex.transaction(async (trx) => {
      const longAgo = new Date(LATER.getTime() - SESSION_TTL_MS - DAY);
      await startWebSession(trx, {
        id: 'wss_old',
        householdId,
        memberId,
        userAgent: null,
        now: longAgo,
      });
      await startWebSession(trx, {
        id: 'wss_new',
        householdId,
        memberId,
        userAgent: null,
        now: TEST_NOW,
      });
    });
    const oauthToken = (hash: string, expiresAt: Date) => ({
      hash,
      kind: 'access',
      grant_id: 'grt_1',
      client_id: 'https://client.example/app',
      scope: 'read',
      resource: 'http://localhost:8080/mcp',
      created_at: TEST_NOW.toISOString(),
      expires_at: expiresAt.toISOString(),
      used_at: null,
      revoked_at: null,
    });
    await a.db
      .knex('oauth_tokens')
      .insert([
        oauthToken('a'.repeat(64), new Date(TEST_NOW.getTime() + 3_600_000)),
        oauthToken('b'.repeat(64), new Date(LATER.getTime() + 3_600_000)),
      ]);
  });
  afterEach(async () => shared.close());

  const left = async () => ({
    tokens: (await a.db.knex('tokens').orderBy('name').pluck('name')) as string[],
    uses: Number((await a.db.knex('token_uses').count({ n: '*' }).first())?.n),
    sessions: (await a.db.knex('web_sessions').pluck('id')) as string[],
    oauth: ((await a.db.knex('oauth_tokens').pluck('hash')) as string[]).map((h) => h[0]),
  });

  it('removes what expired and keeps the rest, when both processes run the job at once', async () => {
    const job = (core: Core<typeof catalog>) =>
      runClaimedJob(
        core.db,
        'credentials_cleanup',
        LATER,
        { everyMs: 3_600_000, leaseMs: 600_000 },
        async () => {
          expect(await purgeExpiredCredentials(core.db, LATER)).toEqual({ tokens: 1, sessions: 1 });
        },
      );
    const ran = await Promise.all([job(a), job(b)]);
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect(await left()).toEqual({
      tokens: ['CLI', 'Month'],
      uses: 2,
      sessions: ['wss_new'],
      oauth: ['b'],
    });
    // Not due again within the hour, in either process.
    expect(await Promise.all([job(a), job(b)])).toEqual([false, false]);
  });

  it('is part of the scheduler every process runs: two ticking at once clean up once', async () => {
    const nobody = { reaches: async () => false, deliver: async () => null };
    const schedulers = [a, b].map((core) =>
      startScheduler({
        core,
        channels: nobody,
        clock: () => LATER,
        intervalMs: 3_600_000,
        log: () => undefined,
      }),
    );
    try {
      await Promise.all(schedulers.map((s) => s.tick()));
    } finally {
      for (const s of schedulers) s.stop();
    }
    expect(await left()).toEqual({
      tokens: ['CLI', 'Month'],
      uses: 2,
      sessions: ['wss_new'],
      oauth: ['b'],
    });
    const run = await a.db.knex('job_runs').where({ name: 'credentials_cleanup' }).first();
    expect(run).toMatchObject({ last_run_at: LATER.toISOString(), lease_token: null });
  });

  it('leaves everything when a run fails mid-way, and the next run does the work', async () => {
    let fail = true;
    const job = () =>
      runClaimedJob(
        b.db,
        'credentials_cleanup',
        LATER,
        { everyMs: 3_600_000, leaseMs: 600_000 },
        async () => {
          if (fail) throw new Error('the database went away');
          await purgeExpiredCredentials(b.db, LATER);
        },
      );
    await expect(job()).rejects.toThrow('the database went away');
    expect((await left()).tokens).toEqual(['CLI', 'Month', 'Week']);
    fail = false;
    expect(await job()).toBe(true);
    expect((await left()).tokens).toEqual(['CLI', 'Month']);
  });
});
