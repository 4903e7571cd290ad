import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { runTerminalChat } from '../../bot/terminal/index.ts';
import { type ChatLog, chatLog } from '../../bot/terminal/log.ts';
import type { ChatAssistant } from '../../core/chat/index.ts';
import { type Actor, newcomerActor } from '../../core/kernel/actor.ts';
import { createTestHousehold, type TestHousehold } from '../helpers/testCore.ts';
import { FOUR_MONTHS } from '../core/ops/statements/statement.ts';
import { scriptedAssistant } from './pacedModel.ts';

/** Runs a terminal session with the given lines typed in, and returns everything it printed. */
async function session(
  h: TestHousehold,
  lines: string[],
  actor: Actor = h.owner,
  options: {
    assistant?: ChatAssistant | ((log: ChatLog['log']) => ChatAssistant);
    writes?: string[];
  } = {},
): Promise<string> {
  const input = new PassThrough();
  const output = new PassThrough();
  // The log shares the terminal, as `exhale chat`'s stderr does.
  const logs = chatLog(output);
  let printed = '';
  output.on('data', (chunk: Buffer) => {
    printed += chunk.toString();
    options.writes?.push(chunk.toString());
  });
  const done = runTerminalChat({
    core: h.core,
    actor,
    input,
    output,
    assistant:
      typeof options.assistant === 'function' ? options.assistant(logs.log) : options.assistant,
    logs,
  });
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
      '5',
      // The redrawn card keeps its numbers: Add is still 9.
      '9',
      'list',
      '1',
      '/quit',
      '/list',
    ]);
    expect(printed).toContain(
      '┌ ✅ Added Netflix\n│ 15.99 EUR · every month\n│ Next charge: Thu, 5 Mar 2026\n└\n[1] ↩️ Undo   [2] ⚙️ Manage',
    );
    expect(printed).toContain('[3] ✓ Monthly   [4] Yearly   [5] Weekly');
    expect(printed).toContain('(updated)\n┌ 📝 Add Spotify?\n│ 9.99 EUR · every week');
    expect(printed).toContain(
      '[3] Monthly   [4] Yearly   [5] ✓ Weekly\n[6] ✓ EUR   [7] USD   [8] GBP\n[9] ✅ Add',
    );
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

  it('reads a number typed after a question as the answer, not as a button', async () => {
    const printed = await session(h, ['/add Gym 20 EUR monthly 3', '/add Phone', '1']);
    expect(printed).toContain('[1] ↩️ Undo');
    expect(printed).toContain('How much does Phone cost each time?');
    expect(printed).toContain('┌ 📝 Add Phone?\n│ 1.00 EUR');
    const names = (await h.db.knex('subscriptions')).map((s: { name: string }) => s.name);
    expect(names).toEqual(['Gym']);
  });

  it('takes the cycle and day said with the price, and says how it read an amount that reads two ways', async () => {
    const printed = await session(h, [
      '/add Seguro',
      '120 yearly 15',
      '9',
      '/add Agua 1.200 EUR monthly 5',
    ]);
    expect(printed).toContain(
      '┌ 📝 Add Seguro?\n│ 120.00 EUR · every year\n│ Next charge: Sun, 15 Mar 2026',
    );
    expect(printed).toContain(
      'I read the price as 1200 EUR. If you meant 1.20, send /add again with the price written 1.20.',
    );
    const daily = await session(h, ['/add Bread 1.50 EUR daily']);
    expect(daily).toContain('✓ Daily   [');
    expect((await h.db.knex('subscriptions')).map((s: { name: string }) => s.name)).toEqual([]);
    // A second subscription of the same name is said first, with the one there is; allowed on a press.
    const twice = await session(h, [
      '/add Netflix 15.99 EUR monthly 5',
      '/add netflix 15.99 EUR monthly 5',
    ]);
    expect(twice).toContain('┌ ℹ️ You already have Netflix\n│ 15.99 EUR · every month');
    const anyway = /\[(\d+)\] ➕ Add a second netflix anyway/.exec(twice);
    expect(anyway).not.toBeNull();
    const netflixes = () => h.db.knex('subscriptions').whereILike('name', 'netflix');
    expect(await netflixes()).toHaveLength(1);
    // A new conversation numbers from 1: this time the card is the first message with buttons.
    const press = String(Number(anyway![1]) - 2);
    const again = await session(h, ['/add netflix 15.99 EUR monthly 5', press]);
    expect(again).toContain(`[${press}] ➕ Add a second netflix anyway`);
    expect(again).toContain('┌ ✅ Added netflix');
    expect(await netflixes()).toHaveLength(2);
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

  it('shows a new token once without asking to delete a message the terminal does not have', async () => {
    const printed = await session(h, ['/token Claude', '2']);
    expect(printed).toContain('Copy it now: it is shown only this once.');
    expect(printed).not.toContain('delete this message');
    expect(await h.db.knex('tokens')).toHaveLength(1);
  });

  it("prints a failed model call's log line after the answer being streamed, never inside it", async () => {
    /** An assistant whose first model call fails (and is logged) while its answer is printing. */
    const failing = (log: ChatLog['log']): ChatAssistant => ({
      isConfigured: async () => true,
      async ask(_actor, _message, sink) {
        sink?.onText('The answer ');
        log('assistant: model call failed, retrying', new Error('HTTP 503'));
        sink?.onText('is here.');
        return {
          text: 'The answer is here.',
          cards: [],
          screen: null,
          notice: null,
          outcome: 'answered',
        };
      },
      confirm: async () => {
        throw new Error('not used');
      },
      discard: async () => {
        throw new Error('not used');
      },
      undo: async () => {
        throw new Error('not used');
      },
    });
    const printed = await session(h, ['what do I pay?'], h.owner, { assistant: failing });
    expect(printed).toContain('The answer is here.\n');
    expect(printed).toContain('assistant: model call failed, retrying: HTTP 503\n');
    expect(printed.indexOf('assistant: model call failed')).toBeGreaterThan(
      printed.indexOf('The answer is here.'),
    );
  });

  it('says so when a typed number is not a button', async () => {
    const printed = await session(h, ['42']);
    expect(printed).toContain('There is no button 42 to press now.');
  });

  it("streams the assistant's answer as it is written, then shows its change as a card with numbered Confirm, Discard and Undo", async () => {
    const netflix = (
      await h.core.invoke('create_subscription', h.owner, {
        name: 'Netflix',
        amount: '15.99',
        first_charge_date: '2026-01-12',
      })
    ).output.id;
    const answer = 'Netflix now costs 17.99 EUR; confirm below and I will change it.';
    const { assistant, requests } = scriptedAssistant(
      h.core,
      [
        { calls: [{ name: 'update_subscription', args: { id: netflix, amount: '17.99' } }] },
        { text: answer },
      ],
      { gapMs: 5 },
    );
    const writes: string[] = [];
    const printed = await session(h, ['Netflix went up to 17.99', '1', '3'], h.owner, {
      assistant,
      writes,
    });
    // The answer arrived in pieces, each written as it came, and is not printed a second time.
    const pieces = writes.filter((w) => answer.includes(w) && w.length < answer.length);
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    expect(pieces.join('')).toBe(answer);
    expect(printed.split(answer)).toHaveLength(2);
    expect(printed).toContain(
      `${answer}\n\n┌ 📝 Change Netflix?\n│ ✏️ Netflix: amount 15.99 EUR → 17.99 EUR\n│ Price history: 1 added\n└\n[1] ✅ Confirm   [2] ✖️ Discard`,
    );
    expect(printed).toContain(
      '(updated)\n┌ ✅ Done: Change Netflix\n│ ✏️ Netflix: amount 15.99 EUR → 17.99 EUR\n│ Price history: 1 added\n│ You can undo this for a day.\n└\n[3] ↩️ Undo',
    );
    expect(printed).toContain('(updated)\n┌ ↩️ Undone: Change Netflix\n│ It is back as it was.\n└');
    const row = (await h.db.knex('subscriptions').where({ id: netflix }).first()) as {
      amount_minor: number;
    };
    expect(row.amount_minor).toBe(1599);
    expect(requests).toHaveLength(2);
    const usage = await h.db.knex('assistant_usage').first();
    expect(usage.channel).toBe('terminal');
  });

  it('sends a file with /file PATH: the same statement review, imported by typing its numbers', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'exhale-file-'));
    const file = path.join(dir, 'card.csv');
    await writeFile(file, FOUR_MONTHS);
    try {
      const printed = await session(h, [
        '/help',
        `/file ${file}`,
        '4',
        '/file',
        `/file ${dir}/nope.csv`,
      ]);
      expect(printed).toContain('Send a file with /file PATH');
      expect(printed).toContain('⏳ Reading card.csv…');
      expect(printed).toContain('┌ 📄 card.csv');
      expect(printed).toMatch(/\[1\] ✅ \S+/);
      expect(printed).toContain('[4] Import 3');
      expect(printed).toContain('┌ ✅ Imported 3 from card.csv');
      expect(printed).toContain('Cannot read');
      expect(await h.db.knex('subscriptions')).toHaveLength(3);
      const entry = await h.db.knex('audit_entries').where({ op: 'import_candidates' }).first();
      expect(entry.channel).toBe('terminal');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps a redrawn card’s numbers: after a row is ticked off, the Import number just read still imports', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'exhale-file-'));
    const file = path.join(dir, 'card.csv');
    await writeFile(file, FOUR_MONTHS);
    try {
      const printed = await session(h, [`/file ${file}`, '1', '4']);
      expect(printed).toContain('[4] Import 3');
      // Row 1 ticked off: its row and the Import button are redrawn with the numbers they had.
      expect(printed).toMatch(
        /\(updated\)\n┌ 📄 card\.csv[\s\S]*\[1\] ⬜ \S+[\s\S]*\[4\] Import 2/,
      );
      expect(printed).not.toContain('There is no button');
      expect(await h.db.knex('subscriptions')).toHaveLength(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
