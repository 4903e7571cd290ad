import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { offeredOn } from '../../../../core/kernel/op.ts';
import { exportData } from '../../../../core/ops/data/exportData.ts';
import { csvField, csvText, cycleText } from '../../../../core/ops/data/_lib/subscriptionsCsv.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';
import { fillHousehold, type RichHousehold } from './household.ts';

async function exportJson(h: TestHousehold, actor = h.owner) {
  const { output } = await h.core.invoke('export_data', actor, {});
  if (!output.document) throw new Error('expected a JSON export');
  return output.document;
}

describe('export_data', () => {
  let h: TestHousehold;
  let rich: RichHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
    rich = await fillHousehold(h);
  });
  afterEach(async () => h.close());

  it('exports the household as one "exhale/1" document with everything the owner can see', async () => {
    const { output, auditId } = await h.core.invoke('export_data', h.owner, {});
    expect(auditId).toBeNull();
    expect(output).toMatchObject({ format: 'json', filename: 'exhale-2026-03-02.json', media_type: 'application/json', subscriptions: 7, csv: null });
    const doc = output.document;
    if (!doc) throw new Error('expected a document');
    expect(doc).toMatchObject({
      format: 'exhale/1',
      exported_at: '2026-03-02T10:00:00.000Z',
      exported_by: h.ownerId,
      household: { name: 'Test home', currency: 'EUR', time_zone: 'Europe/Madrid', locale: 'en' },
    });
    expect(doc.members.map((m) => m.name)).toEqual(['Ana', 'Luis']);
    expect(doc.categories).toEqual([
      { name: 'Games', color: null },
      { name: 'Music', color: null },
      { name: 'Sport', color: '#00AA55' },
      { name: 'Streaming', color: '#E50914' },
    ]);
    expect(doc.payment_methods).toEqual([{ name: 'Joint Visa', kind: 'card', last4: '4242' }]);
    expect(doc.tags).toEqual([{ name: 'family' }, { name: 'kids' }]);
    expect(doc.exchange_rates).toEqual([{ currency: 'USD', date: '2026-02-01', per_eur: '1.0823' }]);

    const netflix = doc.subscriptions.find((s) => s.id === rich.netflix);
    expect(netflix).toMatchObject({
      name: 'Netflix',
      amount: '17.99',
      currency: 'EUR',
      cycle: { unit: 'month', every: 1 },
      category: 'Streaming',
      payment_method: 'Joint Visa',
      tags: ['family', 'kids'],
      shares: [
        { member_id: h.ownerId, percent: '50.00' },
        { member_id: rich.luis.memberId, percent: '50.00' },
      ],
      charges: [
        { due_date: '2026-01-05', status: 'paid', amount: '15.99', currency: 'EUR', note: null },
        { due_date: '2026-02-05', status: 'paid', amount: '17.99', currency: 'EUR', note: null },
      ],
      price_changes: [{ effective_date: '2026-02-01', old_amount: '15.99', new_amount: '17.99', currency: 'EUR' }],
    });
    expect(doc.subscriptions.find((s) => s.name === 'Disney+')).toMatchObject({ status: 'cancelled', cancelled_on: '2026-01-20', category: 'Streaming' });
    expect(doc.subscriptions.find((s) => s.name === 'The Economist')).toMatchObject({ cycle: { unit: 'month', every: 3 }, notice_days: 30 });
  });

  it('leaves out chat ids of members', async () => {
    const doc = await exportJson(h);
    const text = JSON.stringify(doc);
    expect(text).not.toContain('987654321');
    expect(text).not.toContain('U0SECRET');
    expect(Object.keys(doc.members[0] ?? {})).not.toContain('telegram_user_id');
    expect(text).not.toContain('external_id');
  });

  it("leaves out another member's private subscriptions and their charges, but keeps one's own", async () => {
    const ana = await exportJson(h);
    expect(ana.subscriptions.map((s) => s.name)).toContain('Diary app');
    expect(ana.subscriptions.map((s) => s.id)).not.toContain(rich.gym);
    expect(ana.subscriptions.flatMap((s) => s.charges).map((c) => c.due_date)).not.toContain('2026-02-01');

    const luis = await exportJson(h, rich.luis);
    expect(luis.exported_by).toBe(rich.luis.memberId);
    expect(luis.subscriptions.map((s) => s.id)).not.toContain(rich.diary);
    expect(luis.subscriptions.flatMap((s) => s.charges).some((c) => c.due_date === '2025-04-10')).toBe(false);
    expect(luis.subscriptions.find((s) => s.id === rich.gym)).toMatchObject({
      private: true,
      charges: [{ due_date: '2026-02-01', status: 'paid', amount: '39.90' }],
    });
  });

  it('exports subscriptions as RFC 4180 CSV with a header row, decimal amounts and readable cycles', async () => {
    const { output } = await h.core.invoke('export_data', h.owner, { format: 'csv' });
    expect(output).toMatchObject({ format: 'csv', filename: 'exhale-subscriptions-2026-03-02.csv', media_type: 'text/csv', subscriptions: 7, document: null });
    const csv = output.csv ?? '';
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe(
      'name,vendor,amount,currency,cycle,first_charge_date,next_charge_date,status,monthly_cost,category,payment_method,tags,member,private,trial_ends_on,paused_on,cancelled_on,contract_ends_on,notice_days,url,cancel_url,notes',
    );
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(csv).toContain(
      'Netflix,,17.99,EUR,1 month,2025-01-05,2026-03-05,active,17.99,Streaming,Joint Visa,family; kids,Ana,no,,,,,,https://www.netflix.com,,"Premium, ""4K"", 4 screens"',
    );
    expect(csv).toContain('"Chess.com, Diamond",,5.00,EUR,1 month,');
    expect(csv).toContain('The Economist,The Economist Group,59.00,EUR,3 months,');
    // a note starting like a formula is defused, and its line break stays inside the quotes
    expect(csv).toContain(`"'=HYPERLINK(""x"")\nsecond line"`);
    expect(csv).toContain('Diary app,,4.99,USD,1 year,');
    expect(csv).not.toContain('Gym');
  });

  it('is not offered to agents over MCP nor to the assistant', () => {
    expect(offeredOn(exportData, 'mcp')).toBe(false);
    expect(offeredOn(exportData, 'assistant')).toBe(false);
    expect(offeredOn(exportData, 'web')).toBe(true);
    expect(exportData.exclude?.mcp).toMatch(/person to download/);
  });
});

describe('CSV writing', () => {
  it('quotes only fields with commas, quotes or line breaks, doubling quotes', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
    expect(csvField('+34 600')).toBe("'+34 600");
    expect(csvText([['a', 'b'], ['1', '']])).toBe('a,b\r\n1,\r\n');
  });

  it('writes cycles as a count and a unit', () => {
    expect(cycleText({ unit: 'month', every: 1 })).toBe('1 month');
    expect(cycleText({ unit: 'week', every: 2 })).toBe('2 weeks');
  });
});
