import { type ChildProcess, spawn } from 'node:child_process';

import { Client, ProtocolError } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type Actor, memberActor, newcomerActor } from '../../core/kernel/actor.ts';
import { CREDENTIAL_REFUSED } from '../../mcp/stdio.ts';
import { BIN, runExhale } from '../helpers/exhaleProcess.ts';
import { type ProcessCore, processCores } from '../helpers/processCores.ts';
import { openSharedTestDatabase, type SharedTestDatabase } from '../helpers/sharedDatabase.ts';
import { StreamClientTransport } from './streamTransport.ts';

interface McpProcess {
  client: Client;
  child: ChildProcess;
  /** The exit code (null after a signal) and everything written to stderr. */
  exited: Promise<{ code: number | null; stderr: string }>;
}

/**
 * `exhale mcp` as an agent's client starts it: a real process, with the token in EXHALE_TOKEN,
 * connected with the SDK client in one protocol era.
 */
async function startMcp(
  env: Record<string, string>,
  token: string,
  mode: 'auto' | 'legacy',
  elicit?: () => Promise<{ action: 'accept'; content: { confirm: boolean } }>,
): Promise<McpProcess> {
  const child = spawn(process.execPath, [BIN, 'mcp'], {
    env: { ...childEnv(), ...env, EXHALE_TOKEN: token },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, stderr })),
  );
  const client = new Client(
    { name: 'stdio-agent', version: '1' },
    { versionNegotiation: { mode }, capabilities: elicit ? { elicitation: { form: {} } } : {} },
  );
  if (elicit) client.setRequestHandler('elicitation/create', elicit);
  await client.connect(new StreamClientTransport(child.stdout, child.stdin));
  return { client, child, exited };
}

/** The test's environment without its database and channels (as exhaleProcess.ts gives children). */
function childEnv(): Record<string, string> {
  const env: Record<string, string> = { EXHALE_ECB_RATES: 'off' };
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && key !== 'EXHALE_DATABASE_URL' && !key.startsWith('EXHALE_SLACK_'))
      if (key !== 'EXHALE_TELEGRAM_TOKEN') env[key] = value;
  return env;
}

/** The JSON-RPC error a call was refused with (fails the test if it was answered). */
async function refusal(call: Promise<unknown>): Promise<ProtocolError> {
  const outcome = await call.then(
    (result) => ({ result }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome)) throw new Error(`answered: ${JSON.stringify(outcome.result)}`);
  if (!(outcome.error instanceof ProtocolError)) throw outcome.error;
  return outcome.error;
}

function structured(result: unknown): Record<string, unknown> {
  const r = result as { structuredContent?: Record<string, unknown>; isError?: boolean };
  if (r.isError || !r.structuredContent) throw new Error(`tool failed: ${JSON.stringify(result)}`);
  return r.structuredContent;
}

/**
 * `exhale mcp` with an agent token checks the token again on every request, as HTTP does: what
 * another process does to it (revokes it, ends it, removes or demotes its member) counts from the
 * next request on. Real `exhale` processes on one database: a SQLite file, or a PostgreSQL schema.
 */
describe('exhale mcp with a token, while another process changes it', () => {
  let shared: SharedTestDatabase;
  let env: Record<string, string>;
  let other: ProcessCore;
  let owner: Actor;
  const cores = processCores(() => shared);
  const running: McpProcess[] = [];

  beforeEach(async () => {
    shared = await openSharedTestDatabase();
    env =
      shared.dialect === 'sqlite'
        ? { EXHALE_DATA_DIR: (shared.sqliteFile ?? '').replace(/\/exhale\.sqlite$/, '') }
        : {
            EXHALE_DATABASE_URL: `${shared.url ?? ''}?options=${encodeURIComponent(`-c search_path=${shared.schema ?? ''}`)}`,
          };
    other = await cores.open();
    const created = await other.core.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      owner_name: 'Ana',
    });
    owner = memberActor(
      { ...created.output.member, household_id: created.output.household.id },
      'cli',
    );
  });

  afterEach(async () => {
    for (const p of running.splice(0)) {
      if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill('SIGKILL');
      await p.exited;
    }
    await cores.close();
    await shared.close();
  });

  const start = async (
    token: string,
    mode: 'auto' | 'legacy' = 'auto',
    elicit?: Parameters<typeof startMcp>[3],
  ): Promise<McpProcess> => {
    const p = await startMcp(env, token, mode, elicit);
    running.push(p);
    return p;
  };
  const tagNames = async (): Promise<string[]> => {
    const { output } = await other.core.invoke('list_tags', owner, {});
    return (output as { items: Array<{ name: string }> }).items.map((tag) => tag.name).sort();
  };

  it.each(['auto', 'legacy'] as const)(
    'refuses a token revoked by `exhale token revoke` on the very next request, says why in words, writes nothing, and exits (%s negotiation)',
    async (mode) => {
      const { output } = await other.core.invoke('create_token', owner, {
        name: 'Agent',
        scope: 'write',
      });
      const p = await start(output.token, mode);
      // A 2026-era client listening for changes: its open stream does not keep the server alive.
      if (mode === 'auto') await p.client.listen({ resourceSubscriptions: ['exhale://context'] });
      expect(structured(await p.client.callTool({ name: 'get_household' })).name).toBe('Home');
      structured(await p.client.callTool({ name: 'create_tag', arguments: { name: 'before' } }));

      const revoked = await runExhale(env, ['token', 'revoke', output.id]);
      expect(revoked.code, revoked.stderr).toBe(0);

      // No wait for any event: the next request is refused, whatever it is.
      const error = await refusal(p.client.callTool({ name: 'get_household' }));
      expect(error.code).toBe(CREDENTIAL_REFUSED);
      expect(error.message).toContain('This Exhale token no longer works');
      // The same connection writes nothing more: it is refused or already closed.
      await expect(
        p.client.callTool({ name: 'create_tag', arguments: { name: 'after' } }),
      ).rejects.toThrow();
      const { code, stderr } = await p.exited;
      expect(code).toBe(2);
      expect(stderr).toContain('That token is not valid');
      expect(await tagNames()).toEqual(['before']);
    },
    120_000,
  );

  it('does not apply a change a 2025-era client confirms after its token was revoked', async () => {
    await other.core.invoke('create_tag', owner, { name: 'keep' });
    const { output } = await other.core.invoke('create_token', owner, {
      name: 'Agent',
      scope: 'write',
    });
    // The person says yes, but by then another process has revoked the token.
    const p = await start(output.token, 'legacy', async () => {
      await other.core.invoke('revoke_token', owner, { id: output.id });
      return { action: 'accept', content: { confirm: true } };
    });
    const [tag] = (structured(await p.client.callTool({ name: 'list_tags' })).items ?? []) as [
      { id: string },
    ];
    const deleted = await p.client
      .callTool({ name: 'delete_tag', arguments: { id: tag.id } })
      .catch((error: unknown) => ({ isError: true, error }));
    expect((deleted as { isError?: boolean }).isError).toBe(true);
    expect((await p.exited).code).toBe(2);
    expect(await tagNames()).toEqual(['keep']);
  }, 120_000);

  it('refuses a token from the first request after its expiry, in the member’s language', async () => {
    await other.core.invoke('update_member', owner, { id: owner.memberId ?? '', language: 'es' });
    const { output } = await other.core.invoke('create_token', owner, {
      name: 'Agent',
      scope: 'read',
    });
    const p = await start(output.token);
    structured(await p.client.callTool({ name: 'list_tags' }));
    // Another connection gives it an expiry already past: a token whose time came.
    await shared
      .open()
      .knex('tokens')
      .where({ id: output.id })
      .update({ expires_at: '2001-01-01T00:00:00.000Z' });
    const error = await refusal(p.client.callTool({ name: 'list_tags' }));
    expect(error.code).toBe(CREDENTIAL_REFUSED);
    expect(error.message).toContain('Este token de Exhale ya no sirve');
    expect((await p.exited).code).toBe(2);
  }, 120_000);

  it('refuses the token of a member removed by another process, and acts as a demoted member as a member from the next request on', async () => {
    const invite = await other.core.invoke('create_invite', owner, {});
    const joined = await other.core.invoke('join_household', newcomerActor('cli', 'en'), {
      code: invite.output.code,
      name: 'Ben',
    });
    const benId = joined.output.member.id;
    await other.core.invoke('update_member', owner, { id: benId, role: 'owner' });
    const ben = memberActor(
      { ...joined.output.member, household_id: owner.householdId ?? '', role: 'owner' },
      'cli',
    );
    const { output } = await other.core.invoke('create_token', ben, {
      name: 'Ben agent',
      scope: 'trusted',
    });
    const p = await start(output.token);
    const rename = (name: string) =>
      p.client.callTool({ name: 'update_household', arguments: { name } });
    expect(structured(await rename('Home 2')).name).toBe('Home 2');

    await other.core.invoke('update_member', owner, { id: benId, role: 'member' });
    const demoted = (await rename('Home 3')) as { isError?: boolean; content: unknown };
    expect(demoted.isError).toBe(true);
    expect(JSON.stringify(demoted.content)).toContain('owner');

    await other.core.invoke('remove_member', owner, { id: benId });
    expect((await refusal(p.client.callTool({ name: 'list_tags' }))).code).toBe(CREDENTIAL_REFUSED);
    expect((await p.exited).code).toBe(2);
    const { output: hh } = await other.core.invoke('get_household', owner, {});
    expect(hh.name).toBe('Home 2');
  }, 120_000);

  it('writes each call whole or not at all while another process revokes the token mid-stream: what was answered is there, nothing after', async () => {
    const { output } = await other.core.invoke('create_token', owner, {
      name: 'Agent',
      scope: 'write',
    });
    const p = await start(output.token);
    const answered: string[] = [];
    let wroteTwice = (): void => undefined;
    const twice = new Promise<void>((resolve) => (wroteTwice = resolve));
    // Three writers on this connection, each call after the last, until the token is refused.
    let refused = false;
    const writer = async (w: number): Promise<void> => {
      // Bounded: a connection that never refuses fails the test instead of writing forever.
      for (let i = 0; !refused && i < 200; i += 1) {
        const name = `w${w}-${i}`;
        try {
          structured(await p.client.callTool({ name: 'create_tag', arguments: { name } }));
          answered.push(name);
          if (answered.length === 2) wroteTwice();
        } catch (error) {
          refused = true;
          if (error instanceof ProtocolError) expect(error.code).toBe(CREDENTIAL_REFUSED);
        }
      }
    };
    const writers = Promise.all([0, 1, 2].map(writer));
    // The other process revokes while they write.
    await twice;
    await other.core.invoke('revoke_token', owner, { id: output.id });
    await writers;
    expect(refused).toBe(true);
    expect((await p.exited).code).toBe(2);
    expect(await tagNames()).toEqual([...answered].sort());
  }, 120_000);

  it('leaves no half-written call when killed mid-write, and a revoked token is then refused at start', async () => {
    const { output } = await other.core.invoke('create_token', owner, {
      name: 'Agent',
      scope: 'write',
    });
    const p = await start(output.token);
    const answered: string[] = [];
    const calls = Array.from({ length: 6 }, (_, i) =>
      p.client
        .callTool({ name: 'create_tag', arguments: { name: `k${i}` } })
        .then(() => void answered.push(`k${i}`))
        .catch(() => undefined),
    );
    await calls[0];
    p.child.kill('SIGKILL');
    await Promise.all(calls);
    expect((await p.exited).code).toBe(null);
    const tags = await tagNames();
    // Every answered call is there; each other call is there whole or not at all.
    for (const name of answered) expect(tags).toContain(name);
    for (const name of tags) expect(name).toMatch(/^k[0-5]$/);

    // The token still works for a new process, until it is revoked.
    const again = await start(output.token);
    expect(structured(await again.client.callTool({ name: 'list_tags' })).items).toHaveLength(
      tags.length,
    );
    await again.client.close();
    expect((await again.exited).code).toBe(0);
    await other.core.invoke('revoke_token', owner, { id: output.id });
    const refused = await runExhale({ ...env, EXHALE_TOKEN: output.token }, ['mcp']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('That token is not valid');
  }, 120_000);
});
