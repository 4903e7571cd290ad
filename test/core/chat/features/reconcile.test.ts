import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { ChatEngine, type Conversation, type IncomingFile } from '../../../../core/chat/index.ts';
import {
  createTestHousehold,
  TEST_DIALECT,
  type TestHousehold,
} from '../../../helpers/testCore.ts';
import { dumpDatabase } from '../../../helpers/dump.ts';
import { FOUR_MONTHS } from '../../ops/statements/statement.ts';
import { RecordingChannel } from '../recordingChannel.ts';

const text = RecordingChannel.text;
const payload = RecordingChannel.payload;

const file: IncomingFile = {
  name: 'card.csv',
  mediaType: 'text/csv',
  size: Buffer.byteLength(FOUR_MONTHS),
  download: () => Promise.resolve(Buffer.from(FOUR_MONTHS)),
};

const labels = (m: { buttons?: Array<Array<{ label: string }>> }) =>
  (m.buttons ?? []).flat().map((b) => b.label);

describe(`reconciling a statement in chat (${TEST_DIALECT})`, () => {
  let h: TestHousehold;
  let channel: RecordingChannel;
  let engine: ChatEngine;
  let owner: Conversation;
  let netflix: string;
  beforeEach(async () => {
    h = await createTestHousehold();
    channel = new RecordingChannel();
    engine = new ChatEngine({ core: h.core });
    owner = {
      who: { channel: 'terminal', externalId: null, displayName: 'Ana', actor: h.owner },
      where: { kind: 'private', chatId: 'c' },
    };
  });
  afterEach(async () => h.close());

  async function track() {
    netflix = (
      await h.core.invoke('create_subscription', h.owner, {
        name: 'Netflix',
        amount: '15.99',
        first_charge_date: '2025-11-03',
      })
    ).output.id;
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Iron Gym',
      amount: '30.00',
      first_charge_date: '2025-11-15',
    });
  }
  const send = () => engine.handle(owner, { kind: 'file', file, caption: '' }, channel);
  const press = (p: string) =>
    engine.handle(
      owner,
      { kind: 'press', payload: p, message: { chatId: 'c', messageId: '0' } },
      channel,
    );

  it('offers no Reconcile while the household has no subscriptions', async () => {
    await send();
    expect(labels(channel.messages[0]!)).not.toContain('🔎 Reconcile');
  });

  it('reconciles from the review card, marks the matched charges paid in one press, and undoes them in one', async () => {
    await track();
    await send();
    expect(labels(channel.messages[0]!)).toContain('🔎 Reconcile');
    const before = await dumpDatabase(h.db, { except: ['audit_entries', 'flows'] });
    await press(payload(channel.messages[0]!, '🔎 Reconcile'));
    const card = text(channel.messages[0]!);
    expect(card).toContain('🔎 Reconciled card.csv');
    expect(card).toContain('✅ Matched: 6');
    expect(card).toContain('🔍 To review: 2');
    expect(card).toContain('• Netflix Mon, 5 Jan 2026: expected 15.99 EUR, charged 17.99 EUR');
    expect(card).toContain('• Iron Gym Sun, 15 Feb 2026: 30.00 EUR');
    expect(card).toContain('➕ Recurring, not tracked: 1');
    expect(card).toContain('Spotify');
    expect(await dumpDatabase(h.db, { except: ['audit_entries', 'flows'] })).toBe(before);

    await press(payload(channel.messages[0]!, 'Mark 6 paid'));
    expect(text(channel.messages[0]!)).toContain('✅ Marked 6 charges paid');
    const paid = await h.core.invoke('list_charges', h.owner, {
      from: '2025-11-01',
      to: '2026-02-28',
      status: ['paid'],
    });
    expect(
      paid.output.items.map((c) => `${c.subscription_name} ${c.due_date} ${c.amount}`),
    ).toEqual([
      'Netflix 2025-11-03 15.99',
      'Iron Gym 2025-11-15 30.00',
      'Netflix 2025-12-03 15.99',
      'Iron Gym 2025-12-15 30.00',
      'Iron Gym 2026-01-15 30.00',
      'Iron Gym 2026-02-15 30.00',
    ]);
    expect(await h.db.knex('audit_entries').where({ op: 'mark_charges_paid' })).toHaveLength(1);

    await press(payload(channel.messages[0]!, 'Undo'));
    expect(text(channel.messages[0]!)).toContain('The 6 charges are no longer marked paid');
    expect(await dumpDatabase(h.db, { except: ['audit_entries', 'flows'] })).toBe(before);
  });

  it('reconciles again instead when a charge on the card was recorded since, and writes nothing', async () => {
    await track();
    await send();
    await press(payload(channel.messages[0]!, '🔎 Reconcile'));
    const markButton = payload(channel.messages[0]!, 'Mark 6 paid');
    await h.core.invoke('mark_charge_paid', h.owner, {
      subscription_id: netflix,
      due_date: '2025-11-03',
    });
    const before = await dumpDatabase(h.db, { except: ['flows'] });
    await press(markButton);
    const card = text(channel.messages[0]!);
    expect(card).toContain('Some of these charges were recorded since');
    expect(card).toContain('(already recorded)');
    expect(labels(channel.messages[0]!)).toContain('Mark 5 paid');
    expect(await dumpDatabase(h.db, { except: ['flows'] })).toBe(before);
  });

  it('says on the import card how many past charges it recorded as paid', async () => {
    await send();
    await press(payload(channel.messages[0]!, 'Import 3'));
    expect(text(channel.messages[0]!)).toContain('and 12 past charges as paid');
  });
  it('reconciles from the import card too: the statement is kept for it until the review expires', async () => {
    await track();
    await send();
    const importLabel = labels(channel.messages[0]!).find((l) => l.startsWith('Import '));
    expect(importLabel).toBeDefined();
    await press(payload(channel.messages[0]!, importLabel!));
    expect(labels(channel.messages[0]!)).toContain('🔎 Reconcile');
    await press(payload(channel.messages[0]!, '🔎 Reconcile'));
    expect(text(channel.messages[0]!)).toContain('🔎 Reconciled card.csv');
  });
});
