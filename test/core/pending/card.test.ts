import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { previewCard } from '../../../core/pending/card.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';

describe("a pending change's card", () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  async function cardOf(name: string, input: Record<string, unknown>, locale: 'en' | 'es') {
    const op = h.core.op(name);
    const run = await h.core.invoke(op, { ...h.owner, locale }, input, { dryRun: true });
    return previewCard(h.db.knex, op, run.output, run.changes, locale);
  }

  it('writes amounts, dates and statuses in the reader’s way, in Spanish as in English', async () => {
    const { output } = await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '1234.5',
      first_charge_date: '2026-03-05',
    });
    const es = await cardOf(
      'cancel_subscription',
      { id: output.id, effective_date: '2026-04-05' },
      'es',
    );
    const text = es.lines.join('\n');
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    expect(text).not.toMatch(/\b(active|cancelled)\b/);
    expect(text).toContain('cancelada');
    expect(text).toContain('dom, 5 abr 2026');
    const del = await cardOf('delete_subscription', { id: output.id }, 'es');
    expect(del.lines[0]).toContain('1234,50 EUR');
    const en = await cardOf(
      'cancel_subscription',
      { id: output.id, effective_date: '2026-04-05' },
      'en',
    );
    expect(en.lines.join('\n')).toContain('Sun, 5 Apr 2026');
  });
});
