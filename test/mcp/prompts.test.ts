import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { createMcpTestHousehold, ERAS, type McpTestHousehold } from './helpers.ts';

const NAMES = [
  'monthly_review',
  'find_savings',
  'audit_price_increases',
  'import_statement',
  'clean_up_categories',
];

describe.each(ERAS)('MCP prompts (%s era)', (era) => {
  let h: McpTestHousehold;
  beforeEach(async () => {
    h = await createMcpTestHousehold();
  });
  afterEach(async () => h.closeAll());

  it('offers the five ready-made tasks, each with optional arguments', async () => {
    const client = await h.connect((await h.token('read')).token, era);
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(NAMES);
    for (const prompt of prompts) {
      expect(prompt.title?.length).toBeGreaterThan(5);
      expect(prompt.arguments?.length).toBe(1);
      expect(prompt.arguments?.[0]?.required).toBeFalsy();
    }
  });

  it('gets each prompt as a message pointing at the briefing and the tools this token has', async () => {
    const client = await h.connect((await h.token('read')).token, era);
    for (const name of NAMES) {
      const prompt = await client.getPrompt({ name, arguments: {} });
      expect(prompt.messages[0]?.content).toMatchObject({
        type: 'resource_link',
        uri: 'exhale://context',
      });
      const text = (prompt.messages[1]?.content as { text: string }).text;
      expect(text.length).toBeGreaterThan(100);
      // A read token is not pointed at tools it cannot call.
      expect(text).not.toMatch(/\b(cancel_subscription|merge_categories|create_subscription)\b/);
    }
    const review = await client.getPrompt({ name: 'monthly_review', arguments: {} });
    expect((review.messages[1]?.content as { text: string }).text).toContain('2026-03');
    const audit = await client.getPrompt({
      name: 'audit_price_increases',
      arguments: { since: '2025-06-01' },
    });
    expect((audit.messages[1]?.content as { text: string }).text).toContain('since 2025-06-01');
    const trusted = await h.connect((await h.token('trusted')).token, era);
    const cleanup = await trusted.getPrompt({ name: 'clean_up_categories', arguments: {} });
    expect((cleanup.messages[1]?.content as { text: string }).text).toContain('merge_categories');
  });

  it('refuses an argument that is not what it says, and takes an empty one as left out', async () => {
    const client = await h.connect((await h.token('read')).token, era);
    await expect(
      client.getPrompt({ name: 'monthly_review', arguments: { month: 'November' } }),
    ).rejects.toThrow('A month as YYYY-MM.');
    await expect(
      client.getPrompt({ name: 'audit_price_increases', arguments: { since: '2026-02-30' } }),
    ).rejects.toThrow('A real date as YYYY-MM-DD.');
    await expect(
      client.getPrompt({ name: 'import_statement', arguments: { format: 'xls' } }),
    ).rejects.toThrow('One of csv, ofx, qfx, pdf, image.');
    const review = await client.getPrompt({ name: 'monthly_review', arguments: { month: '' } });
    expect((review.messages[1]?.content as { text: string }).text).toContain('2026-03');
  });

  it('points import_statement at the statement reader and the import of chosen candidates', async () => {
    const write = await h.connect((await h.token('write')).token, era);
    const prompt = await write.getPrompt({
      name: 'import_statement',
      arguments: { format: 'csv' },
    });
    const text = (prompt.messages[1]?.content as { text: string }).text;
    expect(text).toContain('(format: csv)');
    expect(text).toContain('read_statement');
    expect(text).toContain('import_candidates');
    expect(text).toContain('reconcile_statement');
    expect(text).toContain('mark_charges_paid');
    expect(text).toContain('reconcile the statement');
    expect(text).not.toContain('import_data');
    const read = await h.connect((await h.token('read')).token, era);
    const readText = (
      (await read.getPrompt({ name: 'import_statement' })).messages[1]?.content as { text: string }
    ).text;
    expect(readText).toContain('read_statement');
    expect(readText).toContain('reconcile_statement');
    expect(readText).not.toContain('import_candidates');
    expect(readText).not.toContain('mark_charges_paid');
  });

  it("writes prompts in the member's language", async () => {
    const luis = await h.addMember('Luis', 'es');
    const client = await h.connect((await h.token('read', luis)).token, era);
    const { prompts } = await client.listPrompts();
    expect(prompts.find((p) => p.name === 'find_savings')?.title).toBe('Buscar ahorros');
    const prompt = await client.getPrompt({
      name: 'find_savings',
      arguments: { category: 'Streaming' },
    });
    expect((prompt.messages[1]?.content as { text: string }).text).toContain(
      'Ayúdanos a gastar menos en suscripciones (categoría: Streaming)',
    );
  });

  it('completes prompt arguments', async () => {
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Netflix',
      amount: '15.99',
      category: 'Streaming',
    });
    await h.core.invoke('create_subscription', h.owner, {
      name: 'Gym',
      amount: '40',
      category: 'Sport',
    });
    const client = await h.connect((await h.token('read')).token, era);
    const complete = async (name: string, argument: string, value: string) =>
      (
        await client.complete({
          ref: { type: 'ref/prompt', name },
          argument: { name: argument, value },
        })
      ).completion.values;
    expect(await complete('monthly_review', 'month', '2026-')).toEqual([
      '2026-03',
      '2026-02',
      '2026-01',
    ]);
    expect(await complete('find_savings', 'category', 'st')).toEqual(['Streaming']);
    expect(await complete('clean_up_categories', 'focus', '')).toEqual(['Sport', 'Streaming']);
    expect(await complete('import_statement', 'format', 'o')).toEqual(['ofx']);
    expect(await complete('audit_price_increases', 'since', '2025-')).toEqual([
      '2025-12-02',
      '2025-09-02',
      '2025-03-02',
    ]);
  });
});
