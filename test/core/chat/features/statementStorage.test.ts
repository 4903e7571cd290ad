import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import {
  ChatEngine,
  type Conversation,
  type IncomingFile,
  purgeExpiredFlows,
} from '../../../../core/chat/index.ts';
import { memberActor, newcomerActor } from '../../../../core/kernel/actor.ts';
import { Core } from '../../../../core/kernel/core.ts';
import { catalog } from '../../../../core/ops/catalog.ts';
import { importCandidates } from '../../../../core/ops/statements/importCandidates.ts';
import type { Database } from '../../../../core/store/connection.ts';
import {
  openSharedTestDatabase,
  type SharedTestDatabase,
} from '../../../helpers/sharedDatabase.ts';
import {
  createTestHousehold,
  TEST_DIALECT,
  type TestHousehold,
} from '../../../helpers/testCore.ts';
import { FOUR_MONTHS } from '../../ops/statements/statement.ts';
import { RecordingChannel } from '../recordingChannel.ts';

/**
 * Where a statement sent in chat is kept: once, in its review's `flows` row, while the review is
 * open; the import's pending change refers to that row instead of holding a second copy. When the
 * review ends (imported, or replaced by a fresh one) the file goes from it; when it expires, the
 * scheduler's purge leaves nothing of it. A failed import keeps the file for a second try, and two
 * processes pressing Import at once import once.
 */

const text = RecordingChannel.text;
const payload = RecordingChannel.payload;

const fileOf = (content: string, name = 'card.csv'): IncomingFile => ({
  name,
  mediaType: 'text/csv',
  size: Buffer.byteLength(content),
  download: () => Promise.resolve(Buffer.from(content)),
});

/** The file as the review keeps it. */
const FILE = Buffer.from(FOUR_MONTHS).toString('base64');

interface FlowRow {
  id: string;
  kind: string;
  payload: string;
}

/** Every flows row that holds the file, by kind. */
async function holding(db: Database): Promise<string[]> {
  const rows: FlowRow[] = await db.knex('flows').select('id', 'kind', 'payload');
  return rows.filter((r) => r.payload.includes(FILE)).map((r) => r.kind);
}

describe(`a statement's file in chat is kept once (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  let channel: RecordingChannel;
  let owner: Conversation;
  beforeEach(async () => {
    h = await createTestHousehold();
    channel = new RecordingChannel();
    owner = {
      who: { channel: 'terminal', externalId: null, displayName: 'Ana', actor: h.owner },
      where: { kind: 'private', chatId: 'c' },
    };
  });
  afterEach(async () => h.close());

  const sendFile = (engine: ChatEngine) =>
    engine.handle(owner, { kind: 'file', file: fileOf(FOUR_MONTHS), caption: '' }, channel);
  const press = (engine: ChatEngine, p: string) =>
    engine.handle(
      owner,
      { kind: 'press', payload: p, message: { chatId: 'c', messageId: '0' } },
      channel,
    );

  it('keeps the file in the review only, its import referring to it, and drops it once imported', async () => {
    const engine = new ChatEngine({ core: h.core });
    await sendFile(engine);
    expect(await holding(h.db)).toEqual(['statement']);
    await press(engine, payload(channel.messages[0]!, 'Import 3'));
    expect(text(channel.messages[0]!)).toContain('Imported 3 from card.csv');
    // The pending change (kept for Undo) names the review, not the file; the review has ended.
    const pending: FlowRow[] = await h.db.knex('flows').where('kind', 'like', 'pending%');
    expect(pending).toHaveLength(1);
    expect(JSON.parse(pending[0]!.payload).args).toEqual({
      file_name: 'card.csv',
      encoding: 'base64',
      candidates: expect.any(Array),
      review: expect.stringMatching(/^stm/),
    });
    expect(await holding(h.db)).toEqual([]);
    // Undo still works from the result card.
    await press(engine, payload(channel.messages[0]!, 'Undo'));
    expect(text(channel.messages[0]!)).toContain('Import of card.csv undone');
    expect(await h.db.knex('subscriptions')).toHaveLength(0);
  });

  it('leaves nothing of a review that expired, once the purge has run', async () => {
    const engine = new ChatEngine({ core: h.core });
    await sendFile(engine);
    const card = channel.messages[0]!;
    h.clock.now = new Date(h.clock.now.getTime() + 24 * 3_600_000 + 1);
    await press(engine, payload(card, 'Import 3'));
    expect(text(channel.messages.at(-1)!)).toContain('expired');
    await purgeExpiredFlows(h.db, h.clock.now);
    expect(await h.db.knex('flows').where({ kind: 'statement' })).toEqual([]);
    expect(await holding(h.db)).toEqual([]);
    expect(await h.db.knex('subscriptions')).toHaveLength(0);
  });

  it('drops the file of a review replaced by a fresh one (the household moved on)', async () => {
    const engine = new ChatEngine({ core: h.core });
    await sendFile(engine);
    const card = channel.messages[0]!;
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
      first_charge_date: '2025-11-03',
    });
    await press(engine, payload(card, 'Import 3'));
    expect(text(channel.messages[0]!)).toContain('Your subscriptions changed');
    // The fresh review holds the file; the replaced one does not.
    expect(await holding(h.db)).toEqual(['statement']);
    const reviews: FlowRow[] = await h.db.knex('flows').where({ kind: 'statement' });
    expect(reviews).toHaveLength(2);
  });

  it('keeps the file when the import fails half-way, and imports on the next press', async () => {
    let fail = true;
    // import_candidates as it is, but failing after it wrote its rows, when it is not a dry run:
    // the transaction must take them all back.
    const failing: typeof importCandidates = {
      ...importCandidates,
      async run(ctx, input) {
        const out = await importCandidates.run(ctx, input);
        if (fail && !ctx.dryRun) throw new Error('disk full');
        return out;
      },
    };
    const core = new Core({
      db: h.db,
      catalog: catalog.map((op) => (op.name === importCandidates.name ? failing : op)),
      clock: () => new Date(h.clock.now),
      newId: h.ids.next,
    });
    const logged: string[] = [];
    const engine = new ChatEngine({ core, log: (m) => logged.push(m) });
    await sendFile(engine);
    const card = channel.messages[0]!;
    await press(engine, payload(card, 'Import 3'));
    expect(logged.length).toBeGreaterThan(0);
    expect(await h.db.knex('subscriptions')).toHaveLength(0);
    expect(await holding(h.db)).toEqual(['statement']);
    fail = false;
    await press(engine, payload(card, 'Import 3'));
    expect(text(channel.messages[0]!)).toContain('Imported 3 from card.csv');
    expect(await h.db.knex('subscriptions')).toHaveLength(3);
    expect(await holding(h.db)).toEqual([]);
  });
});

describe(`two processes and one statement review (${TEST_DIALECT})`, () => {
  let shared: SharedTestDatabase;
  afterEach(async () => shared.close());

  it('imports once when both press Import at the same moment, and neither keeps the file', async () => {
    shared = await openSharedTestDatabase();
    const clock = { now: new Date('2026-03-02T10:00:00.000Z') };
    let n = 0;
    const newId = (prefix: string) => `${prefix}_${String(++n).padStart(6, '0')}`;
    const [a, b] = [shared.open(), shared.open()].map(
      (db) => new Core({ db, catalog, clock: () => new Date(clock.now), newId }),
    );
    const created = await a!.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Test home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      language: 'en',
      owner_name: 'Ana',
    });
    const { household, member } = created.output;
    const actor = memberActor(
      { id: member.id, household_id: household.id, role: 'owner', language: 'en' },
      'cli',
    );
    const owner: Conversation = {
      who: { channel: 'terminal', externalId: null, displayName: 'Ana', actor },
      where: { kind: 'private', chatId: 'c' },
    };
    const [one, two] = [a!, b!].map((core) => ({
      engine: new ChatEngine({ core }),
      channel: new RecordingChannel(),
    }));
    await one!.engine.handle(
      owner,
      { kind: 'file', file: fileOf(FOUR_MONTHS), caption: '' },
      one!.channel,
    );
    const pressed = payload(one!.channel.messages[0]!, 'Import 3');
    await Promise.all(
      [one!, two!].map(({ engine, channel }) =>
        engine.handle(
          owner,
          { kind: 'press', payload: pressed, message: { chatId: 'c', messageId: '0' } },
          channel,
        ),
      ),
    );
    const db = shared.open();
    expect(await db.knex('subscriptions')).toHaveLength(3);
    expect(await db.knex('audit_entries').where({ op: 'import_candidates' })).toHaveLength(1);
    expect(await holding(db)).toEqual([]);
  });
});
