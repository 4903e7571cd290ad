import { afterEach, describe, expect, it } from 'vitest';

import { LIMITS } from '../../../core/assistant/limits.ts';
import { anthropicSse } from '../../fakes/llmScript.ts';
import type { RecordedRequest } from '../../fakes/llmServer.ts';
import { offeredTools, systemOf, toolResults, type World, world } from './helpers.ts';

/**
 * Deterministic conversations with a scripted model over loopback HTTP, in both protocols: reads,
 * a change confirmed, discarded, expired, undone; five changes in one message; limits.
 */
let w: World | undefined;
afterEach(async () => {
  await w?.close();
  w = undefined;
});

const amountOf = async (x: World, id: string): Promise<number> =>
  Number(
    (
      (await x.h.db.knex('subscriptions').where({ id }).first('amount_minor')) as {
        amount_minor: number;
      }
    ).amount_minor,
  );

describe.each(['anthropic', 'openai'] as const)('the assistant over %s', (protocol) => {
  it('answers a read question from a read tool, streaming the text, with results as data blocks', async () => {
    w = await world(protocol, [
      { text: 'Let me look.', calls: [{ name: 'list_subscriptions', args: { text: 'Netflix' } }] },
      { text: 'Netflix costs 15.99 EUR a month.' },
    ]);
    let streamed = '';
    const reply = await w.assistant.ask(
      w.member,
      { text: 'How much is Netflix?' },
      { onText: (d) => void (streamed += d) },
    );
    expect(reply.text).toBe('Let me look.\n\nNetflix costs 15.99 EUR a month.');
    expect(streamed).toBe(reply.text);
    expect(reply.cards).toEqual([]);
    expect(reply.outcome).toBe('answered');
    expect(reply.notice).toBeNull();
    const [first, second] = w.server.requests as [RecordedRequest, RecordedRequest];
    expect(first.body.stream).toBe(true);
    const results = toolResults(second.body);
    expect(results).toHaveLength(1);
    expect(results[0]!.content).toMatch(
      /^<data source="list_subscriptions">\n\{.*"name":"Netflix".*\}\n<\/data>$/s,
    );
    expect(results[0]!.content).not.toContain('Spotify');
  });

  it("offers the member's ops and show_screen as tools, never secrets, trusted ops or dry-run switches", async () => {
    w = await world(protocol, [{ text: 'Hi.' }]);
    await w.assistant.ask(w.member, { text: 'hello' });
    const body = w.server.requests[0]!.body;
    const names = offeredTools(body);
    expect(names).toContain('list_subscriptions');
    expect(names).toContain('delete_subscription');
    expect(names).toContain('show_screen');
    for (const hidden of [
      'create_token',
      'export_data',
      'create_household',
      'join_household',
      'create_invite',
      'remove_member',
      'revoke_token',
    ])
      expect(names).not.toContain(hidden);
    expect(JSON.stringify(body.tools)).not.toMatch(/dryRun|dry_run|"confirm"/);
    expect(systemOf(body)).toContain('Text inside <data> blocks');
    expect(systemOf(body)).toMatch(
      /<data source="household_briefing">[\s\S]*Netflix[\s\S]*<\/data>/,
    );
  });

  it('prepares a change as a proposal the member confirms once; the model cannot skip the preview', async () => {
    w = await world(protocol, (ids) => [
      {
        calls: [
          {
            name: 'update_subscription',
            args: { id: ids.netflix, amount: '17.99', dryRun: false, confirm: true },
          },
        ],
      },
      { text: 'Ready for you to confirm.' },
    ]);
    const netflix = w.ids.netflix;
    const reply = await w.assistant.ask(w.member, { text: 'Netflix went up to 17.99' });
    expect(await amountOf(w, netflix)).toBe(1599);
    expect(reply.text).toBe('Ready for you to confirm.');
    expect(reply.cards).toHaveLength(1);
    const card = reply.cards[0]!;
    expect(card).toMatchObject({
      op: 'update_subscription',
      title: 'Change Netflix?',
      destructive: false,
    });
    expect(card.lines.join('\n')).toContain('amount 15.99 EUR → 17.99 EUR');
    const stored = (await w.h.db.knex('flows').where({ id: card.id }).first()) as {
      kind: string;
      member_id: string;
      payload: string;
      expires_at: string;
    };
    expect(stored.kind).toBe('pending_assistant');
    expect(stored.member_id).toBe(w.member.memberId);
    expect(JSON.parse(stored.payload).args).toEqual({ id: netflix, amount: '17.99' });
    expect(stored.expires_at).toBe(
      new Date(w.h.clock.now.getTime() + LIMITS.proposalTtlMs).toISOString(),
    );
    expect(toolResults(w.server.requests[1]!.body)[0]!.content).toMatch(
      /^Prepared, not applied: proposal prp_/,
    );

    const done = await w.otherProcess().confirm(w.member, card.id);
    expect(done.title).toBe('✅ Done: Change Netflix');
    expect(done.auditId).not.toBeNull();
    expect(await amountOf(w, netflix)).toBe(1799);
    const audit = (await w.h.db.knex('audit_entries').where({ id: done.auditId }).first()) as {
      actor_kind: string;
      channel: string;
      member_id: string;
    };
    expect(audit).toMatchObject({
      actor_kind: 'assistant',
      channel: 'telegram',
      member_id: w.member.memberId,
    });
    await expect(w.assistant.confirm(w.member, card.id)).rejects.toMatchObject({
      code: 'conflict',
      key: 'assistant.proposal.used',
    });

    const undone = await w.assistant.undo(w.member, card.id);
    expect(undone.undone).toBeGreaterThan(0);
    expect(await amountOf(w, netflix)).toBe(1599);
    await expect(w.assistant.undo(w.member, card.id)).rejects.toMatchObject({ code: 'conflict' });
  });

  it('discards a proposal: nothing changes and it cannot be confirmed after', async () => {
    w = await world(protocol, ({ gym }) => [
      { calls: [{ name: 'pause_subscription', args: { id: gym } }] },
      { text: 'Ready.' },
    ]);
    const reply = await w.assistant.ask(w.member, { text: 'pause the gym' });
    const card = reply.cards[0]!;
    expect(card.title).toBe('Pause Gym?');
    await w.assistant.discard(w.member, card.id);
    await expect(w.assistant.confirm(w.member, card.id)).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(
      (
        (await w.h.db.knex('subscriptions').where({ id: w.ids.gym }).first('status')) as {
          status: string;
        }
      ).status,
    ).toBe('active');
  });

  it('applies nothing when what the card shows is no longer what Confirm would do', async () => {
    w = await world(protocol, ({ gym }) => [
      { calls: [{ name: 'update_subscription', args: { id: gym, amount: '35.00' } }] },
      { text: 'Ready.' },
    ]);
    const reply = await w.assistant.ask(w.member, { text: 'the gym is 35 now' });
    const card = reply.cards[0]!;
    // Meanwhile someone else in the household changes the gym's price.
    await w.h.core.invoke('update_subscription', w.h.owner, { id: w.ids.gym, amount: '32.00' });
    await expect(w.assistant.confirm(w.member, card.id)).rejects.toMatchObject({
      code: 'conflict',
      key: 'errors.preview_changed',
    });
    expect(await amountOf(w, w.ids.gym)).toBe(3200);
    const row = (await w.h.db.knex('flows').where({ id: card.id }).first()) as { payload: string };
    expect(JSON.parse(row.payload).status).toBe('failed');
  });

  it('lets a proposal expire after 30 minutes, and only its member may use it', async () => {
    w = await world(protocol, ({ gym }) => [
      { calls: [{ name: 'pause_subscription', args: { id: gym } }] },
      { text: 'Ready.' },
    ]);
    const reply = await w.assistant.ask(w.member, { text: 'pause the gym' });
    const card = reply.cards[0]!;
    const luis = await w.h.addMember('Luis');
    await expect(
      w.assistant.confirm({ ...luis, channel: 'telegram' }, card.id),
    ).rejects.toMatchObject({ code: 'not_found' });
    w.h.clock.now = new Date(w.h.clock.now.getTime() + 30 * 60_000 + 1);
    await expect(w.assistant.confirm(w.member, card.id)).rejects.toMatchObject({
      code: 'conflict',
      key: 'assistant.proposal.expired',
    });
    expect(
      (
        (await w.h.db.knex('subscriptions').where({ id: w.ids.gym }).first('status')) as {
          status: string;
        }
      ).status,
    ).toBe('active');
  });

  it('prepares at most five changes in one message and says so', async () => {
    const adds = Array.from({ length: 6 }, (_, i) => ({
      name: 'create_subscription',
      args: { name: `Service ${i + 1}`, amount: '1.00' },
    }));
    w = await world(protocol, [{ calls: adds }, { text: 'Prepared them.' }]);
    const reply = await w.assistant.ask(w.member, { text: 'add six services' });
    expect(reply.cards.map((c) => c.title)).toEqual([
      'Add Service 1?',
      'Add Service 2?',
      'Add Service 3?',
      'Add Service 4?',
      'Add Service 5?',
    ]);
    expect(await w.subscriptionCount()).toBe(3);
    const results = toolResults(w.server.requests[1]!.body);
    expect(results[5]!.content).toMatch(/^Not prepared: at most 5 changes per message/);
    expect(reply.notice).toBe(
      'I prepared 5 changes, the most for one message; ask for the rest in another message.',
    );
    for (const card of reply.cards) await w.assistant.confirm(w.member, card.id);
    expect(await w.subscriptionCount()).toBe(8);
  });

  it('stops after six model calls, the last without tools', async () => {
    const steps = Array.from({ length: 6 }, () => ({
      calls: [{ name: 'get_household', args: {} }],
    }));
    w = await world(protocol, steps);
    const reply = await w.assistant.ask(w.member, { text: 'loop forever' });
    expect(w.server.requests).toHaveLength(6);
    const choice = w.server.requests[5]!.body.tool_choice;
    expect(protocol === 'anthropic' ? choice : { type: choice }).toEqual({ type: 'none' });
    expect(reply.outcome).toBe('limit');
    expect(reply.notice).toBe(
      'I stopped after 6 steps, the most for one message. Ask again to continue.',
    );
  });

  it('refuses a too long message and an unknown file before sending anything', async () => {
    w = await world(protocol, [{ text: 'never' }]);
    await expect(w.assistant.ask(w.member, { text: 'x'.repeat(4001) })).rejects.toMatchObject({
      code: 'too_large',
    });
    await expect(
      w.assistant.ask(w.member, {
        text: 'see',
        attachments: [{ data: new Uint8Array([0, 1, 2, 0]), name: 'a.bin' }],
      }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    const picture = new Uint8Array(LIMITS.pictureBytes + 1);
    picture.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await expect(
      w.assistant.ask(w.member, { text: 'see', attachments: [{ data: picture, name: 'big.png' }] }),
    ).rejects.toMatchObject({ code: 'too_large', key: 'assistant.attachment.too_large.image' });
    expect(w.server.requests).toHaveLength(0);
  });

  it('paces a member: a burst, then one message per interval', async () => {
    w = await world(protocol, [{ text: '1' }, { text: '2' }, { text: '3' }], {
      limits: { rateBurst: 2, rateIntervalMs: 15_000 },
    });
    await w.assistant.ask(w.member, { text: 'a' });
    await w.assistant.ask(w.member, { text: 'b' });
    await expect(w.assistant.ask(w.member, { text: 'c' })).rejects.toMatchObject({
      code: 'rate_limited',
      params: { seconds: 15 },
    });
    w.h.clock.now = new Date(w.h.clock.now.getTime() + 15_000);
    await expect(w.assistant.ask(w.member, { text: 'c' })).resolves.toMatchObject({ text: '3' });
  });

  it('refuses a tool result over the byte limit with a hint instead of cutting it', async () => {
    w = await world(
      protocol,
      [{ calls: [{ name: 'list_subscriptions', args: { limit: 500 } }] }, { text: 'Too many.' }],
      { limits: { toolResultBytes: 500 } },
    );
    await w.assistant.ask(w.member, { text: 'list all' });
    const result = toolResults(w.server.requests[1]!.body)[0]!;
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/bytes, over the 500-byte limit: ask for less/);
  });

  it('shows a screen Exhale reads from the database, and tells the model its mistakes in one line', async () => {
    w = await world(protocol, ({ netflix, gym }) => [
      {
        calls: [
          {
            name: 'show_screen',
            args: { kind: 'subscriptions', subscription_ids: [netflix, gym], amount: '0.01' },
          },
        ],
      },
      {
        calls: [
          {
            name: 'show_screen',
            args: { kind: 'subscriptions', subscription_ids: [netflix, gym] },
          },
        ],
      },
      { text: 'Here they are.' },
    ]);
    const reply = await w.assistant.ask(w.member, { text: 'show netflix and gym' });
    expect(toolResults(w.server.requests[1]!.body)[0]).toEqual({
      content: expect.stringMatching(/^(Error: )?show_screen: unknown field amount$/),
      isError: true,
    });
    expect(reply.screen?.kind).toBe('subscriptions');
    expect(reply.screen?.title).toBe('Subscriptions (2)');
    expect(reply.screen?.lines).toEqual([
      'Netflix · 15.99 EUR · next 2026-03-12',
      'Gym · 30.00 EUR · next 2026-03-20',
    ]);
  });

  it('remembers the last turns as text and what the member did with each proposal', async () => {
    w = await world(protocol, ({ gym }) => [
      { calls: [{ name: 'pause_subscription', args: { id: gym } }] },
      { text: 'Pause ready.' },
      { text: 'You discarded it.' },
    ]);
    const first = await w.assistant.ask(w.member, { text: 'pause the gym' });
    await w.assistant.discard(w.member, first.cards[0]!.id);
    await w.assistant.ask(w.member, { text: 'what did I do?' });
    const body = w.server.requests[2]!.body;
    const text = JSON.stringify(body.messages);
    expect(text).toContain('pause the gym');
    expect(text).toContain('Pause ready.');
    expect(text).not.toContain('pause_subscription');
    expect(systemOf(body)).toMatch(
      /<data source="earlier_proposals">[\s\S]*"card":"Pause Gym\?","status":"discarded"[\s\S]*<\/data>/,
    );
  });

  it('records usage per question without the words', async () => {
    w = await world(protocol, [{ text: 'Hello!', usage: { input: 1200, output: 300 } }], {
      model: 'claude-sonnet-4-5',
    });
    await w.assistant.ask(w.member, { text: 'a secret question' });
    const rows = (await w.h.db.knex('assistant_usage').select('*')) as Array<
      Record<string, unknown>
    >;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      member_id: w.member.memberId,
      channel: 'telegram',
      provider: protocol,
      model: 'claude-sonnet-4-5',
      calls: 1,
      input_tokens: 1200,
      output_tokens: 300,
      cost_micros: 1200 * 3 + 300 * 15,
      outcome: 'answered',
    });
    expect(JSON.stringify(rows)).not.toContain('secret');
  });

  it('removes email addresses from what tools return', async () => {
    w = await world(
      protocol,
      ({ netflix }) => [
        { calls: [{ name: 'get_subscription', args: { id: netflix } }] },
        { text: 'ok' },
      ],
      { netflixNotes: 'account: ana.perez@example.com' },
    );
    await w.assistant.ask(w.member, { text: 'netflix account?' });
    const result = toolResults(w.server.requests[1]!.body)[0]!.content;
    expect(result).toContain('account: [email removed]');
    expect(result).not.toContain('example.com');
  });
});

describe('reasoning blocks', () => {
  it('go back exactly within one question and are never replayed in the next', async () => {
    w = await world('anthropic', [
      {
        thinking: { text: 'The member wants the household.', signature: 'EqQBsig-1' },
        calls: [{ name: 'get_household', args: {} }],
      },
      { text: 'Your household is Test home.' },
      { text: 'Again: Test home.' },
    ]);
    await w.assistant.ask(w.member, { text: 'which household?' });
    const echoed = (
      w.server.requests[1]!.body.messages as Array<{
        role: string;
        content: Array<Record<string, unknown>>;
      }>
    ).at(-2)!;
    expect(echoed.role).toBe('assistant');
    expect(echoed.content[0]).toEqual({
      type: 'thinking',
      thinking: 'The member wants the household.',
      signature: 'EqQBsig-1',
    });
    await w.assistant.ask(w.member, { text: 'and again?' });
    const next = JSON.stringify(w.server.requests[2]!.body);
    expect(next).toContain('Your household is Test home.');
    expect(next).not.toContain('EqQBsig-1');
    expect(next).not.toContain('The member wants the household.');
  });
});

describe('the assistant when the model fails', () => {
  const json = { 'content-type': 'application/json' };

  it('keeps the words already streamed when the model fails in the middle of its answer', async () => {
    const events = anthropicSse([
      {
        type: 'message_start',
        message: { id: 'm', model: 'x', usage: { input_tokens: 5, output_tokens: 1 } },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      {
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'text_delta', text: 'You spend 56.98 EUR a month, mostly on ' },
      },
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    ]);
    w = await world('anthropic', [
      { reply: { headers: { 'content-type': 'text/event-stream' }, body: events } },
    ]);
    let streamed = '';
    const reply = await w.assistant.ask(
      w.member,
      { text: 'how much do we spend?' },
      { onText: (d) => void (streamed += d) },
    );
    expect(streamed).toBe('You spend 56.98 EUR a month, mostly on ');
    expect(reply.text).toBe('You spend 56.98 EUR a month, mostly on…');
    expect(reply.outcome).toBe('failed');
    expect(reply.notice).toBe(
      "The assistant's model is busy right now. Please try again in a minute.",
    );
  });

  it('tells the member the key was refused, keeps what was prepared, and records the failure', async () => {
    w = await world('anthropic', (ids) => [
      { calls: [{ name: 'pause_subscription', args: { id: ids.gym } }] },
      {
        reply: {
          status: 401,
          headers: json,
          body: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
        },
      },
    ]);
    const reply = await w.assistant.ask(w.member, { text: 'pause the gym' });
    expect(reply.outcome).toBe('failed');
    expect(reply.notice).toBe(
      "The assistant's model refused its API key. The household owner should check the assistant settings.",
    );
    expect(reply.cards.map((c) => c.title)).toEqual(['Pause Gym?']);
    expect(await w.h.db.knex('assistant_usage').first('outcome', 'calls')).toEqual({
      outcome: 'failed',
      calls: 2,
    });
  });

  it('retries a busy model once, then says it is busy', async () => {
    const busy = {
      reply: {
        status: 529,
        headers: json,
        body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      },
    };
    w = await world('anthropic', [busy, busy]);
    const reply = await w.assistant.ask(w.member, { text: 'hello' });
    expect(w.server.requests).toHaveLength(2);
    expect(reply.notice).toBe(
      "The assistant's model is busy right now. Please try again in a minute.",
    );
  });

  it('stops a model call that takes longer than its time limit', async () => {
    w = await world('openai', [{ reply: { headers: json, body: '{}', delayMs: 2_000 } }], {
      limits: { callTimeoutMs: 150 },
    });
    const started = Date.now();
    const reply = await w.assistant.ask(w.member, { text: 'hello' });
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(reply.notice).toBe('That took too long, so I stopped. Please try again.');
    expect(reply.outcome).toBe('failed');
  });
});

describe('the household briefing', () => {
  it('is read again once the household changed, in this process or another', async () => {
    w = await world('anthropic', (ids) => [
      { calls: [{ name: 'delete_subscription', args: { id: ids.netflix } }] },
      { text: 'Ready.' },
      { text: 'Gone.' },
    ]);
    const reply = await w.assistant.ask(w.member, { text: 'delete netflix' });
    expect(systemOf(w.server.requests[0]!.body)).toContain('"name":"Netflix"');
    await w.otherProcess().confirm(w.member, reply.cards[0]!.id);
    await w.assistant.ask(w.member, { text: 'is it gone?' });
    expect(systemOf(w.server.requests[2]!.body)).not.toContain('"name":"Netflix"');
  });
});

describe('the assistant in Spanish', () => {
  it("writes its cards and notices in the member's language", async () => {
    w = await world('openai', (ids) => [
      { calls: [{ name: 'delete_subscription', args: { id: ids.netflix } }] },
      { text: 'Listo.' },
    ]);
    const reply = await w.assistant.ask({ ...w.member, locale: 'es' }, { text: 'borra netflix' });
    expect(reply.cards[0]).toMatchObject({ title: '¿Borrar Netflix?', destructive: true });
    expect(reply.cards[0]!.lines[0]).toBe('🗑 Suscripción: Netflix · 15,99 EUR · cada mes');
    const done = await w.assistant.confirm({ ...w.member, locale: 'es' }, reply.cards[0]!.id);
    expect(done.title).toBe('✅ Hecho: Borrar Netflix');
    expect(await w.subscriptionCount()).toBe(2);
  });
});

describe('the assistant reading a file', () => {
  it('offers only report_subscriptions and turns each finding into an add proposal', async () => {
    w = await world('anthropic', [
      {
        text: 'I found two.',
        calls: [
          {
            name: 'report_subscriptions',
            args: {
              subscriptions: [
                { name: 'Disney+', amount: '8.99', currency: 'EUR' },
                { name: 'iCloud', amount: '2.99', cycle: 'month' },
              ],
            },
          },
        ],
      },
      { text: 'Two subscriptions are ready to add.' },
    ]);
    const pdf = new TextEncoder().encode('%PDF-1.4\n% statement\n');
    const reply = await w.assistant.ask(w.member, {
      text: 'what is in this statement?',
      attachments: [{ data: pdf, name: 'statement.pdf' }],
    });
    const body = w.server.requests[0]!.body;
    expect(offeredTools(body)).toEqual(['report_subscriptions']);
    const content = (body.messages as Array<{ content: Array<Record<string, unknown>> }>).at(
      -1,
    )!.content;
    expect(content[0]).toMatchObject({
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf' },
      title: 'statement.pdf',
    });
    expect(reply.cards.map((c) => c.title)).toEqual(['Add Disney+?', 'Add iCloud?']);
    expect(await w.subscriptionCount()).toBe(3);
  });
});

describe('the assistant while off', () => {
  it('sends nothing anywhere until an owner configures it', async () => {
    w = await world('anthropic', [{ text: 'never' }], { config: {} });
    expect(await w.assistant.isConfigured(w.h.householdId)).toBe(false);
    await expect(w.assistant.ask(w.member, { text: 'hello' })).rejects.toMatchObject({
      code: 'unavailable',
      key: 'assistant.off',
    });
    expect(w.server.requests).toHaveLength(0);
  });
});
