import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { CONNECT_CODE_LIMITS } from '../../../core/auth/oauth/attempts.ts';
import { REFRESH_REUSE_LEEWAY_MS } from '../../../core/auth/oauth/tokens.ts';
import { type Actor, catalog, Core, memberActor, newcomerActor } from '../../../core/index.ts';
import { openSharedTestDatabase, type SharedTestDatabase } from '../../helpers/sharedDatabase.ts';
import { TEST_NOW } from '../../helpers/testCore.ts';
import { type AsHarness, asHarness, pkce, REDIRECT, RESOURCE } from './harness.ts';

/**
 * Two Exhale processes on one database, as two `Core`s with their own connections: a code or a
 * refresh token raced from both is redeemed once, and a revocation in one counts in the other.
 */
describe('the authorization server across connections', () => {
  let shared: SharedTestDatabase;
  let one: AsHarness;
  let two: AsHarness;
  let ana: Actor;
  let coreA: Core<typeof catalog>;
  let coreB: Core<typeof catalog>;
  let now: Date;
  beforeEach(async () => {
    shared = await openSharedTestDatabase();
    now = new Date(TEST_NOW);
    const clock = () => new Date(now);
    coreA = new Core({ db: shared.open(), catalog, clock });
    coreB = new Core({ db: shared.open(), catalog, clock });
    const created = await coreA.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      language: 'en',
      owner_name: 'Ana',
    });
    const { household, member } = created.output;
    ana = memberActor(
      { id: member.id, household_id: household.id, role: 'owner', language: 'en' },
      'cli',
    );
    one = asHarness(coreA);
    two = asHarness(coreB);
  });
  afterEach(async () => {
    await one.close();
    await two.close();
    await shared.close();
  });

  async function authorized() {
    const { client_id } = await one.register();
    const { location, verifier } = await one.authorize(client_id, ana);
    return { client_id, code: location.searchParams.get('code') ?? '', verifier };
  }

  it('redeems one code once when two token requests race, and the replay revokes what it gave', async () => {
    const { client_id, code, verifier } = await authorized();
    const answers = await Promise.all([
      one.tokens(client_id, code, verifier),
      two.tokens(client_id, code, verifier),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const loser = answers.find((a) => a.status === 400);
    expect(await loser?.json()).toMatchObject({ error: 'invalid_grant' });
    const winner = (await answers.find((a) => a.status === 200)?.json()) as {
      access_token: string;
    };
    // RFC 6749 §4.1.2: a code used twice revokes the tokens issued from it.
    expect((await one.mcpCall(winner.access_token, 'list_subscriptions')).status).toBe(401);
  });

  it('gives both of two refreshes racing with one refresh token a fresh pair, from either process, and revokes nothing; a replay after the leeway revokes them all', async () => {
    const { client_id, code, verifier } = await authorized();
    const first = (await (await one.tokens(client_id, code, verifier)).json()) as {
      refresh_token: string;
    };
    const refresh = (h: AsHarness, token = first.refresh_token) =>
      h.form('/oauth/token', {
        grant_type: 'refresh_token',
        refresh_token: token,
        client_id,
        resource: RESOURCE,
      });
    const answers = await Promise.all([refresh(one), refresh(two), refresh(one), refresh(two)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const pairs = (await Promise.all(answers.map((a) => a.json()))) as Array<{
      access_token: string;
      refresh_token: string;
    }>;
    expect(new Set(pairs.map((p) => p.refresh_token)).size).toBe(4);
    // Exactly one of them rotated the token: it was claimed once.
    const db = shared.open();
    const rows = (await db.knex('oauth_tokens').where({ kind: 'refresh' })) as Array<{
      used_at: string | null;
      revoked_at: string | null;
    }>;
    expect(rows.filter((r) => r.used_at !== null)).toHaveLength(1);
    expect(rows.filter((r) => r.revoked_at !== null)).toHaveLength(0);
    for (const [i, pair] of pairs.entries()) {
      expect(
        (await (i % 2 ? one : two).mcpCall(pair.access_token, 'list_subscriptions')).status,
      ).toBe(200);
    }
    // Each new refresh token works on its own, in the other process.
    expect((await refresh(two, pairs[0]?.refresh_token)).status).toBe(200);
    now = new Date(now.getTime() + REFRESH_REUSE_LEEWAY_MS);
    const replay = await refresh(one);
    expect(await replay.json()).toMatchObject({ error: 'invalid_grant' });
    for (const pair of pairs)
      expect((await two.mcpCall(pair.access_token, 'list_subscriptions')).status).toBe(401);
    expect((await refresh(two, pairs[1]?.refresh_token)).status).toBe(400);
  });

  it('leaves a refresh token as it was when the process refreshing it is killed mid-way: another process then refreshes it', async () => {
    const { client_id, code, verifier } = await authorized();
    const first = (await (await one.tokens(client_id, code, verifier)).json()) as {
      refresh_token: string;
    };
    // A process that has claimed the token in its transaction (the update a refresh makes) and
    // is killed before it commits.
    const holder = await holdRefreshClaim(shared, first.refresh_token, now);
    const waiting = two.form('/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id,
      resource: RESOURCE,
    });
    // On PostgreSQL, see the other process's update wait for the killed one's row lock first.
    if (shared.dialect === 'postgres') await lockWaitSeen(shared);
    holder.kill('SIGKILL');
    const answer = await waiting;
    expect(answer.status).toBe(200);
    const pair = (await answer.json()) as { access_token: string };
    expect((await one.mcpCall(pair.access_token, 'list_subscriptions')).status).toBe(200);
    const row = (await shared
      .open()
      .knex('oauth_tokens')
      .where({ hash: createHash('sha256').update(first.refresh_token).digest('hex') })
      .first('used_at', 'revoked_at')) as { used_at: string | null; revoked_at: string | null };
    // Used once, by the process that lived; the killed one's claim is gone.
    expect(row).toEqual({ used_at: now.toISOString(), revoked_at: null });
  });

  it('honours a disconnection made in one process on the next request to the other', async () => {
    const { client_id, code, verifier } = await authorized();
    const tokens = (await (await one.tokens(client_id, code, verifier)).json()) as {
      access_token: string;
    };
    expect((await two.mcpCall(tokens.access_token, 'list_subscriptions')).status).toBe(200);
    const coreA = new Core({ db: shared.open(), catalog, clock: () => new Date(TEST_NOW) });
    const listed = (await coreA.invoke('list_connected_apps', ana, {})).output as {
      items: Array<{ id: string }>;
    };
    await coreA.invoke('disconnect_app', ana, { id: listed.items[0]?.id ?? '' });
    expect((await two.mcpCall(tokens.access_token, 'list_subscriptions')).status).toBe(401);
  });

  it('honours an RFC 7009 revocation made in one process on the next request to the other', async () => {
    const { client_id, code, verifier } = await authorized();
    const tokens = (await (await one.tokens(client_id, code, verifier)).json()) as {
      access_token: string;
    };
    await one.form('/oauth/revoke', { token: tokens.access_token, client_id });
    expect((await two.mcpCall(tokens.access_token, 'list_subscriptions')).status).toBe(401);
  });

  it('leaves nothing half-written when minting tokens fails mid-way: the code stays unused', async () => {
    const { client_id, code, verifier } = await authorized();
    const db = shared.open();
    // The grant disappears between consent and the token request (its member was removed).
    await db.knex('oauth_grants').delete();
    const failed = await one.tokens(client_id, code, verifier);
    expect(await failed.json()).toMatchObject({ error: 'invalid_grant' });
    expect(await db.knex('oauth_tokens').select('hash')).toEqual([]);
    const row = (await db.knex('oauth_codes').first('used_at')) as { used_at: string | null };
    expect(row.used_at).toBeNull();
  });

  it('holds the wrong-code bound across both processes when wrong codes race from each', async () => {
    const { client_id } = await one.register();
    const query = {
      response_type: 'code',
      client_id,
      redirect_uri: 'http://127.0.0.1:3000/callback',
      state: 'st',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      resource: RESOURCE,
      decision: 'allow',
    };
    const wrong = (h: AsHarness, i: number) =>
      h.form('/oauth/authorize', {
        ...query,
        connect_code: `AAAA-AA${String(i).padStart(2, 'A')}`,
      });
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => wrong(i % 2 === 0 ? one : two, i)),
    );
    const statuses = answers.map((a) => a.status);
    // Each attempt reserves on its keys (client and address, address, client), one atomic count
    // each: at most 5 codes of one address on one client are ever checked, every other one waits.
    const checked = statuses.filter((s) => s === 400).length;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - checked);
    // The bound is this address's on this client, whichever process is asked: even a right code
    // from it now waits.
    const good = await one.connectCode(ana);
    expect((await two.form('/oauth/authorize', { ...query, connect_code: good })).status).toBe(429);
    expect((await one.form('/oauth/authorize', { ...query, connect_code: good })).status).toBe(429);
  });
  it('behind a trusted proxy counts the address the proxy appended (the last X-Forwarded-For), so a client cannot pick a new one for each try', async () => {
    const proxiedA = asHarness(coreA, { trustProxy: true });
    const proxiedB = asHarness(coreB, { trustProxy: true });
    try {
      const { client_id } = await proxiedA.register();
      const query = {
        response_type: 'code',
        client_id,
        redirect_uri: REDIRECT,
        state: 'st',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        resource: RESOURCE,
        decision: 'allow',
        via: 'code',
      };
      const statuses: number[] = [];
      for (let i = 0; i < 7; i += 1) {
        // The client sends an address of its choice; the proxy appends the one it saw, in any
        // of the forms proxies write.
        const seen = ['203.0.113.66', '203.0.113.66:51000'][i % 2] ?? '';
        const answer = await (i % 2 ? proxiedA : proxiedB).form(
          '/oauth/authorize',
          { ...query, connect_code: `AAAA-AA${String(i).padStart(2, 'A')}` },
          { 'x-forwarded-for': `10.9.8.${i}, 192.0.2.${i}, ${seen}` },
        );
        statuses.push(answer.status);
      }
      expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429]);
      // The same for IPv6, counted by its /64 whatever the client put first.
      const v6 = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          proxiedA.form(
            '/oauth/authorize',
            { ...query, connect_code: `BBBB-BB${String(i).padStart(2, 'B')}` },
            { 'x-forwarded-for': `198.51.100.${i}, [2001:db8:1:2::${i + 1}]:443` },
          ),
        ),
      );
      expect(v6.map((a) => a.status).sort()).toEqual([400, 400, 400, 400, 400, 429]);
    } finally {
      await proxiedA.close();
      await proxiedB.close();
    }
  });

  it('lets a person at another address connect through a client an attacker has exhausted their tries on, in either process, until the window ends', async () => {
    // Both processes behind a trusted proxy: X-Forwarded-For is each person's address.
    const proxiedA = asHarness(coreA, { trustProxy: true });
    const proxiedB = asHarness(coreB, { trustProxy: true });
    try {
      // One shared public client, as Claude.ai's or ChatGPT's client_id is for every household.
      const { client_id } = await proxiedA.register();
      const { challenge } = pkce();
      const query = {
        response_type: 'code',
        client_id,
        redirect_uri: REDIRECT,
        state: 'st',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource: RESOURCE,
        decision: 'allow',
      };
      const from = (address: string) => ({ 'x-forwarded-for': address });
      const attacker = from('203.0.113.66');
      for (let i = 0; i < 8; i += 1) {
        const answer = await (i % 2 ? proxiedA : proxiedB).form(
          '/oauth/authorize',
          { ...query, connect_code: `AAAA-AA${String(i).padStart(2, 'A')}` },
          attacker,
        );
        // Refused without saying more (400) until the attacker's tries are spent (429).
        expect(answer.status).toBe(i < 5 ? 400 : 429);
      }
      // The limit still stops the attacker, even with a right code and through the other process.
      const stolen = await proxiedA.connectCode(ana);
      expect(
        (await proxiedB.form('/oauth/authorize', { ...query, connect_code: stolen }, attacker))
          .status,
      ).toBe(429);
      // Ana, at home, connects through the same client with her code, in either process.
      const home = from('198.51.100.20');
      const allowed = await proxiedA.form(
        '/oauth/authorize',
        { ...query, connect_code: await proxiedB.connectCode(ana) },
        home,
      );
      expect(allowed.status).toBe(302);
      expect(new URL(allowed.headers.get('location') ?? '').searchParams.get('code')).toMatch(
        /^exc_/,
      );
      // A typo of hers is refused as a wrong code, not as "too many": her budget is her own.
      expect(
        (await proxiedB.form('/oauth/authorize', { ...query, connect_code: 'BBBB-BBBB' }, home))
          .status,
      ).toBe(400);
      // The attacker's count ends with its window: a new one starts afresh.
      now = new Date(now.getTime() + CONNECT_CODE_LIMITS.windowMs);
      expect(
        (
          await proxiedA.form(
            '/oauth/authorize',
            { ...query, connect_code: await proxiedA.connectCode(ana) },
            attacker,
          )
        ).status,
      ).toBe(302);
    } finally {
      await proxiedA.close();
      await proxiedB.close();
    }
  });
});

/**
 * Another process, started here, that claims `refreshToken` as a refresh does (its transaction's
 * update of `used_at`, on SQLite holding the write lock, on PostgreSQL the row) and waits, its
 * transaction open, to be killed. Resolves once the claim is made.
 */
async function holdRefreshClaim(
  shared: SharedTestDatabase,
  refreshToken: string,
  at: Date,
): Promise<ChildProcess> {
  const hash = createHash('sha256').update(refreshToken).digest('hex');
  const script =
    shared.dialect === 'sqlite'
      ? `const sqlite3 = require('sqlite3');
const db = new sqlite3.Database(process.env.FILE);
db.serialize(() => {
  db.run('PRAGMA busy_timeout = 5000');
  db.run('BEGIN IMMEDIATE');
  db.run('UPDATE oauth_tokens SET used_at = ? WHERE hash = ?', [process.env.AT, process.env.HASH], (e) => {
    if (e) throw e;
    console.log('held');
  });
});
setInterval(() => {}, 1000);`
      : `const pg = require('pg');
const client = new pg.Client({ connectionString: process.env.URL });
(async () => {
  await client.connect();
  await client.query('SET search_path TO ' + process.env.SCHEMA);
  await client.query('BEGIN');
  await client.query('UPDATE oauth_tokens SET used_at = $1 WHERE hash = $2', [process.env.AT, process.env.HASH]);
  console.log('held');
})();
setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['-e', script], {
    env: {
      ...process.env,
      FILE: shared.sqliteFile ?? '',
      URL: shared.url ?? '',
      SCHEMA: shared.schema ?? '',
      AT: at.toISOString(),
      HASH: hash,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('held')) resolve();
    });
    child.once('exit', (status) => reject(new Error(`the holding process ended (${status})`)));
  });
  return child;
}

/** Resolves once a PostgreSQL session waits for a lock on `oauth_tokens` (bounded, polled). */
async function lockWaitSeen(shared: SharedTestDatabase): Promise<void> {
  const db = shared.open();
  for (let i = 0; i < 200; i += 1) {
    const rows = (await db.knex.raw(
      `select 1 from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%oauth_tokens%'`,
    )) as { rows: unknown[] };
    if (rows.rows.length > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no session waited for the row lock within 5 s');
}
