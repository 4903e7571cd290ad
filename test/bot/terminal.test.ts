import { PassThrough } from 'node:stream';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { runTerminalChat } from '../../bot/terminal/index.ts';
import { type Actor, newcomerActor } from '../../core/kernel/actor.ts';
import { createTestHousehold, type TestHousehold } from '../helpers/testCore.ts';

/** Runs a terminal session with the given lines typed in, and returns everything it printed. */
async function session(h: TestHousehold, lines: string[], actor: Actor = h.owner): Promise<string> {
  const input = new PassThrough();
  const output = new PassThrough();
  let printed = '';
  output.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
  });
  const done = runTerminalChat({ core: h.core, actor, input, output });
  for (const line of lines) input.write(`${line}\n`);
  input.end();
  await done;
  return printed;
}

describe('the terminal channel', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('runs the same engine: commands, cards, and buttons as numbered choices the person types', async () => {
    const printed = await session(h, [
      '/add Netflix 15.99 EUR monthly 5',
      'add Spotify 9.99',
      '4',
      '16',
      'list',
      '1',
      '/quit',
      '/list',
    ]);
    expect(printed).toContain(
      '┌ ✅ Added Netflix\n│ 15.99 EUR · every month\n│ Next charge: Thu, 5 Mar 2026\n└\n[1] ↩️ Undo',
    );
    expect(printed).toContain('[2] ✓ Monthly   [3] Yearly   [4] Weekly');
    expect(printed).toContain('(updated)\n┌ 📝 Add Spotify?\n│ 9.99 EUR · every week');
    expect(printed).toContain('┌ ✅ Added Spotify');
    expect(printed).toContain('┌ 📋 Subscriptions 1–2 of 2');
    expect(printed).toContain('┌ ↩️ Undone\n│ Added Netflix');
    const names = (await h.db.knex('subscriptions').orderBy('name')).map(
      (s: { name: string }) => s.name,
    );
    expect(names).toEqual(['Spotify']);
    const entry = await h.db.knex('audit_entries').where({ op: 'create_subscription' }).first();
    expect(entry.channel).toBe('terminal');
    // After /quit nothing more is read.
    expect(printed.match(/Subscriptions 1–/g)).toHaveLength(1);
  });

  it('sets up a household for a person without one, then speaks as its owner', async () => {
    // Currencies are [1]–[6] and Other [7]; EUR is [2]. Its zones follow from [8]; Europe/Madrid is first.
    const printed = await session(
      h,
      ['/start', '2', '8', '/list'],
      newcomerActor('terminal', 'en'),
    );
    expect(printed).toContain('[1] USD   [2] EUR   [3] GBP');
    expect(printed).toContain('[8] Europe/Madrid');
    expect(printed).toContain('Your household is ready');
    expect(printed).toContain('You have no subscriptions yet.');
    expect(await h.db.knex('households')).toHaveLength(2);
  });

  it('says so when a typed number is not a button', async () => {
    const printed = await session(h, ['42']);
    expect(printed).toContain('There is no button 42 to press now.');
  });
});
