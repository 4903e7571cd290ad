import {
  type Assistant,
  type AssistantConfigOverride,
  createAssistant,
} from '../../../core/assistant/index.ts';
import type { Limits } from '../../../core/assistant/limits.ts';
import { type Actor, memberActor } from '../../../core/kernel/actor.ts';
import type { Database } from '../../../core/store/connection.ts';
import { up } from '../../../core/store/migrations/202611300003_assistant.ts';
import { type ScriptProtocol, type ScriptStep, scripted } from '../../fakes/llmScript.ts';
import { type FakeLlm, startLlmServer } from '../../fakes/llmServer.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';

/**
 * The assistant's tables, for a database migrated before migration 0003 is registered in
 * core/store/migrations/index.ts (a no-op once it is).
 */
export async function ensureAssistantTables(db: Database): Promise<void> {
  if (!(await db.knex.schema.hasTable('assistant_settings'))) await up(db.knex);
}

export interface World {
  h: TestHousehold;
  /** The owner, talking from Telegram. */
  member: Actor;
  server: FakeLlm;
  assistant: Assistant;
  ids: { netflix: string; spotify: string; gym: string };
  /** Another process over the same database. */
  otherProcess(): Assistant;
  subscriptionCount(): Promise<number>;
  close(): Promise<void>;
}

export interface WorldOptions {
  netflixNotes?: string;
  limits?: Partial<Limits>;
  config?: AssistantConfigOverride;
  model?: string;
}

type Ids = World['ids'];

/** A household with Netflix, Spotify and Gym, a scripted model (steps may use the ids) and the assistant. */
export async function world(
  protocol: ScriptProtocol,
  steps: ScriptStep[] | ((ids: Ids) => ScriptStep[]),
  options: WorldOptions = {},
): Promise<World> {
  const h = await createTestHousehold();
  await ensureAssistantTables(h.db);
  const member = memberActor(
    { id: h.ownerId, household_id: h.householdId, role: 'owner', language: 'en' },
    'telegram',
  );
  const add = async (input: Record<string, unknown>) =>
    (await h.core.invoke('create_subscription', h.owner, input)).output.id;
  const ids = {
    netflix: await add({
      name: 'Netflix',
      amount: '15.99',
      first_charge_date: '2026-01-12',
      ...(options.netflixNotes ? { notes: options.netflixNotes } : {}),
    }),
    spotify: await add({ name: 'Spotify', amount: '10.99', first_charge_date: '2026-02-03' }),
    gym: await add({ name: 'Gym', amount: '30.00', first_charge_date: '2025-11-20' }),
  };
  const server = await startLlmServer(
    scripted(protocol, typeof steps === 'function' ? steps(ids) : steps),
  );
  const config: AssistantConfigOverride = options.config ?? {
    provider: protocol,
    model: options.model ?? 'test-model',
    apiKey: 'sk-test',
    baseUrl: server.url,
  };
  const make = () =>
    createAssistant({
      core: h.core,
      config,
      limits: options.limits,
      http: { retryDelayMs: 1 },
      log: () => undefined,
    });
  return {
    h,
    member,
    server,
    assistant: make(),
    ids,
    otherProcess: make,
    subscriptionCount: async () =>
      Number(
        ((await h.db.knex('subscriptions').count({ n: '*' })) as Array<{ n: number | string }>)[0]
          ?.n ?? 0,
      ),
    async close() {
      await server.close();
      await h.close();
    },
  };
}

/** The tool results a request carried (the previous turn's tool calls answered). */
export function toolResults(
  body: Record<string, unknown>,
): Array<{ content: string; isError: boolean }> {
  const messages = (body.messages ?? []) as Array<Record<string, unknown>>;
  const out: Array<{ content: string; isError: boolean }> = [];
  for (const m of messages) {
    if (m.role === 'tool')
      out.push({ content: String(m.content), isError: String(m.content).startsWith('Error: ') });
    if (Array.isArray(m.content)) {
      for (const block of m.content as Array<Record<string, unknown>>) {
        if (block.type === 'tool_result')
          out.push({ content: String(block.content), isError: block.is_error === true });
      }
    }
  }
  return out;
}

/** The tool names a request offered, whichever protocol. */
export function offeredTools(body: Record<string, unknown>): string[] {
  const tools = (body.tools ?? []) as Array<Record<string, unknown>>;
  return tools.map((t) =>
    String(t.name ?? (t.function as Record<string, unknown> | undefined)?.name),
  );
}

/** The system prompt a request carried, whichever protocol. */
export function systemOf(body: Record<string, unknown>): string {
  if (typeof body.system === 'string') return body.system;
  const first = ((body.messages ?? []) as Array<Record<string, unknown>>)[0];
  return first?.role === 'system' ? String(first.content) : '';
}
