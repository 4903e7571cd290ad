import { createAssistant } from '../core/assistant/index.ts';
import { briefingBlock } from '../core/assistant/prompt.ts';
import { assistantActor, toolSpecs } from '../core/assistant/tools.ts';
import { opsFor } from '../core/kernel/surface.ts';
import { up as assistantTables } from '../core/store/migrations/202611300003_assistant.ts';
import { fakeFetch } from '../test/fakes/llmFetch.ts';
import { anthropicReply } from '../test/fakes/llmScript.ts';
import type { RecordedRequest } from '../test/fakes/llmServer.ts';
import { largeHousehold } from './largeHousehold.ts';
import { benchPostgresUrl, type BenchRow, type BenchSuite, medianMs } from './types.ts';

/** What the instant model does: answers after a tool result, else reads or prepares a change as asked. */
function instantModel(subscriptionId: string) {
  return (request: RecordedRequest) => {
    const messages = (request.body.messages ?? []) as Array<{
      role: string;
      content: Array<Record<string, unknown>>;
    }>;
    const last = messages.at(-1);
    const stream = request.body.stream === true;
    if (last?.content.some((b) => b.type === 'tool_result'))
      return anthropicReply({ text: 'Done.' }, stream);
    const question = String(last?.content.find((b) => b.type === 'text')?.text ?? '');
    if (question.startsWith('read'))
      return anthropicReply(
        { calls: [{ name: 'get_subscription', args: { id: subscriptionId } }] },
        stream,
      );
    if (question.startsWith('change'))
      return anthropicReply(
        { calls: [{ name: 'update_subscription', args: { id: subscriptionId, amount: '9.99' } }] },
        stream,
      );
    return anthropicReply({ text: 'Hello! You have 500 subscriptions.' }, stream);
  };
}

/**
 * The assistant's own time per turn, with a model that answers instantly (in process, no network)
 * on a 500-subscription household: briefing, tool schemas, the loop and a proposal. Plus the bytes
 * of tools and briefing every model call carries. Aim: under 20 ms per turn.
 */
export const suite: BenchSuite = {
  name: 'assistant',
  async run(): Promise<BenchRow[]> {
    const url = benchPostgresUrl();
    const dialect = url ? 'postgres' : 'sqlite';
    const home = await largeHousehold({ subscriptions: 500, charges: 0, url });
    try {
      if (!(await home.db.knex.schema.hasTable('assistant_settings')))
        await assistantTables(home.db.knex);
      const id = home.subscriptionIds[42] ?? '';
      const fake = fakeFetch(instantModel(id));
      const assistant = createAssistant({
        core: home.core,
        config: { provider: 'anthropic', model: 'bench-model', apiKey: 'bench' },
        fetch: fake.fetch,
        clock: () => new Date(),
        limits: { rateBurst: 1_000_000, rateIntervalMs: 1 },
      });
      const member = { ...home.owner, channel: 'telegram' as const };
      const acting = assistantActor(member);
      const sink = { onText: () => undefined };

      const rows: BenchRow[] = [];
      const briefing = await briefingBlock(home.core, acting);
      rows.push({
        name: `briefing (get_context, 500 subs) (${dialect})`,
        median: await medianMs(() => briefingBlock(home.core, acting), 30),
        unit: 'ms',
      });
      const coldStart = performance.now();
      const tools = toolSpecs(opsFor(home.core.catalog, acting, 'assistant'));
      const cold = performance.now() - coldStart;
      rows.push({
        name: 'tool schemas (cached after the first)',
        median: await medianMs(
          async () => toolSpecs(opsFor(home.core.catalog, acting, 'assistant')),
          200,
        ),
        unit: 'ms',
        note: `first build ${cold.toFixed(1)} ms`,
      });

      const turns: Array<[string, string, string]> = [
        ['turn: a plain question (1 model call)', 'hello', ''],
        ['turn: a read (2 calls, get_subscription)', 'read the subscription', ''],
        ['turn: a change (2 calls, dry run + proposal)', 'change its amount', 'aim < 20 ms'],
      ];
      for (const [name, text, aim] of turns) {
        const median = await medianMs(() => assistant.ask(member, { text }, sink), 30, 5);
        rows.push({
          name: `${name} (${dialect})`,
          median,
          unit: 'ms',
          ...(aim ? { note: aim } : {}),
        });
      }

      // The briefing is rebuilt after any change to the household: a turn right after one.
      const fresh: number[] = [];
      for (let i = 0; i < 25; i += 1) {
        await home.core.invoke('update_subscription', home.owner, {
          id: home.subscriptionIds[7] ?? '',
          notes: `bench ${i}`,
        });
        const t0 = performance.now();
        await assistant.ask(member, { text: 'hello' }, sink);
        fresh.push(performance.now() - t0);
      }
      fresh.sort((a, b) => a - b);
      rows.push({
        name: `turn: a plain question right after a change (briefing rebuilt) (${dialect})`,
        median: fresh[Math.floor(fresh.length / 2)] ?? 0,
        unit: 'ms',
      });

      fake.requests.length = 0;
      await assistant.ask(member, { text: 'hello' });
      const first = fake.requests[0];
      rows.push({
        name: 'bytes of tool schemas per call',
        median: Buffer.byteLength(JSON.stringify(tools)),
        unit: 'B',
        note: `${tools.length} tools`,
      });
      rows.push({
        name: 'bytes of the briefing per call',
        median: Buffer.byteLength(briefing),
        unit: 'B',
      });
      rows.push({
        name: 'bytes of a first request (rules, briefing, memory, tools)',
        median: first ? Buffer.byteLength(first.raw) : 0,
        unit: 'B',
      });
      return rows;
    } finally {
      await home.close();
    }
  },
};
