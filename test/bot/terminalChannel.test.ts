import { PassThrough } from 'node:stream';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { type ChannelWork, startChannelWork } from '../../bot/channels.ts';
import { runTerminalChat } from '../../bot/terminal/index.ts';
import { ChannelRegistry } from '../../core/channels/index.ts';
import type { Actor } from '../../core/kernel/actor.ts';
import { createTestHousehold, type TestHousehold } from '../helpers/testCore.ts';

/** `exhale chat` as bot/cli.ts starts it: the session is the process's only channel. */
/** An open session with what it printed so far, and a wait for a text to be printed. */
function openSession(h: TestHousehold, channels: ChannelRegistry) {
  const input = new PassThrough();
  const output = new PassThrough();
  const state = { printed: '' };
  const waiters = new Set<() => void>();
  output.on('data', (chunk: Buffer) => {
    state.printed += chunk.toString();
    for (const waiter of [...waiters]) waiter();
  });
  const printedSoFar = (text: string): Promise<void> =>
    new Promise((resolve) => {
      const check = (): void => {
        if (!state.printed.includes(text)) return;
        waiters.delete(check);
        resolve();
      };
      waiters.add(check);
      check();
    });
  const done = runTerminalChat({ core: h.core, actor: h.owner, input, output, channels });
  return { input, state, printedSoFar, done };
}

describe('the terminal as a channel', () => {
  let h: TestHousehold;
  let registry: ChannelRegistry;
  let work: ChannelWork;
  beforeEach(async () => {
    h = await createTestHousehold();
    registry = new ChannelRegistry(h.db);
    work = startChannelWork(h.core, registry, () => undefined, { intervalMs: 3_600_000 });
  });
  afterEach(async () => {
    work.stop();
    await registry.stop();
    await h.close();
  });

  it('prints a reminder for the member at the keyboard, whose Paid button is pressed by its number', async () => {
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
      first_charge_date: '2026-03-10',
    });
    h.clock.now = new Date('2026-03-07T08:00:00Z'); // 09:00 in Madrid, 3 days before
    const { input, state, printedSoFar, done } = openSession(h, registry);
    await printedSoFar('Exhale');
    expect(registry.isOn('terminal')).toBe(true);
    expect(await work.scheduler.tick()).toBe(1);
    await printedSoFar('🔔 Netflix');
    expect(state.printed).toContain(
      '🔔 Netflix: 15.99 EUR is due in 3 days (Tue, 10 Mar 2026).\n[1] ✅ Paid   [2] ⏭️ Skip this one',
    );
    input.write('1\n');
    input.end();
    await done;
    expect(state.printed).toContain('Marked Netflix paid');
    expect(await h.db.knex('charges').first()).toMatchObject({
      due_date: '2026-03-10',
      status: 'paid',
    });
  });

  it('prints a change an agent made for the member, with Undo', async () => {
    const { input, state, printedSoFar, done } = openSession(h, registry);
    await printedSoFar('Exhale');
    const agent: Actor = {
      ...h.owner,
      kind: 'agent',
      scope: 'write',
      channel: 'mcp',
      agent: { name: 'Claude', tokenId: 'tok_1' },
    };
    await h.core.invoke('create_subscription', agent, { name: 'Notion', amount: '10' });
    await printedSoFar('Undo');
    expect(state.printed).toContain('🤖 Claude');
    expect(state.printed).toContain('Added Notion');
    input.end();
    await done;
  });
});
