import type { Actor } from '../kernel/actor.ts';
import type { Core } from '../kernel/core.ts';
import { OpError } from '../errors/index.ts';
import { opsFor } from '../kernel/surface.ts';
import { t } from '../i18n/index.ts';
import { type Attachment, attachmentPart } from './attachments.ts';
import { createClient, DEFAULT_BASE_URL } from './client.ts';
import { REPORT_SUBSCRIPTIONS } from './documents.ts';
import { isLlmError, type LlmError } from './errors.ts';
import { type FetchLike, type HttpOptions, normaliseBaseUrl } from './http.ts';
import { LIMITS, type Limits } from './limits.ts';
import { runLoop, type ProposalView, type Stop } from './loop.ts';
import { loadMemory, memoryMessages, proposalFacts, rememberTurn } from './memory.ts';
import type { Message, Part, TextSink } from './model.ts';
import { BriefingCache, memoryBlock, systemPrompt } from './prompt.ts';
import { proposals } from './proposals.ts';
import { takeSlot } from './rate.ts';
import { tidyNamesWith } from './tidyNames.ts';
import type { Screen } from './screen.ts';
import {
  type AssistantConfigOverride,
  loadStoredSettings,
  overridesFromEnv,
  resolveSettings,
} from '../store/repos/assistantSettings.ts';
import { startQuestion } from './telemetry.ts';
import { assistantActor, toolSpecs } from './tools.ts';
import { costMicros, priceOf } from '../domain/prices.ts';
import type { Provider } from '../domain/providers.ts';
import { type Outcome, recordUsage } from './usage.ts';

export type { Attachment } from './attachments.ts';
export type { ProposalView } from './loop.ts';
export type { Screen } from './screen.ts';
export type { AssistantConfigOverride } from '../store/repos/assistantSettings.ts';
export { LIMITS } from './limits.ts';
export { overridesFromEnv } from '../store/repos/assistantSettings.ts';

export interface AssistantDeps {
  core: Core;
  /** Fields that override every household's stored settings; default: the EXHALE_ASSISTANT_* environment. */
  config?: AssistantConfigOverride | undefined;
  fetch?: FetchLike | undefined;
  clock?: (() => Date) | undefined;
  /** Tighter or looser limits (tests); the defaults are the table in limits.ts. */
  limits?: Partial<Limits> | undefined;
  http?: Partial<Omit<HttpOptions, 'fetch'>> | undefined;
  log?: ((message: string, error?: unknown) => void) | undefined;
}

export interface AssistantMessage {
  text: string;
  attachments?: Attachment[] | undefined;
}

/** The answer to one message: the model's words, Exhale's cards and screen beside them. */
export interface AssistantReply {
  /** The model's text (streamed to the sink as it was written). */
  text: string;
  /** Prepared changes, each a card with Confirm and Discard. */
  cards: ProposalView[];
  /** A screen the model asked Exhale to show, rendered from the database. */
  screen: Screen | null;
  /** Exhale's own sentence when something stopped the answer (a limit, a model error), in the member's language. */
  notice: string | null;
  outcome: Outcome;
}

/** What a tap on Confirm did: the change applied once, with its audit entry for Undo. */
export interface ConfirmResult {
  id: string;
  op: string;
  title: string;
  lines: string[];
  auditId: string | null;
  /** Until when Undo works (null when nothing changed). */
  undoUntil: string | null;
  output: unknown;
}

export interface Assistant {
  isConfigured(householdId: string): Promise<boolean>;
  ask(actor: Actor, message: AssistantMessage, sink?: TextSink): Promise<AssistantReply>;
  confirm(actor: Actor, proposalId: string): Promise<ConfirmResult>;
  discard(actor: Actor, proposalId: string): Promise<{ id: string; title: string }>;
  undo(actor: Actor, proposalId: string): Promise<{ id: string; title: string; undone: number }>;
  /**
   * One small test call with the household's settings as they are now (the set-up's "does it
   * work?"): sends no household data, records no usage. `notice` is the member's sentence when
   * it failed (a wrong key, an unreachable server), in their language.
   */
  check(actor: Actor): Promise<{ ok: true; model: string } | { ok: false; notice: string }>;
  /**
   * Tidy names for merchant descriptions (tidyNames.ts: the descriptions only, scrubbed, within
   * `limits.tidyTimeoutMs`), by index; null when the assistant is off for the household or the
   * model gave none. Never rejects: the caller keeps the names it has.
   */
  tidyNames(actor: Actor, descriptions: readonly string[]): Promise<Map<number, string> | null>;
}

const NOTICE_OF_STOP: Record<Stop, string> = {
  calls: 'assistant.notice.calls',
  time: 'assistant.notice.time',
  tokens: 'assistant.notice.tokens',
  refused: 'assistant.notice.refused',
  failed: 'assistant.notice.failed',
};

/**
 * The notice of a failed model call. A server that could not be reached at all (refused, no such
 * host) says so, not "failed to answer": to the owner with the address tried (`{url}`), who can
 * fix it in Settings; to a member, that the owner should check it.
 */
function errorNotice(error: LlmError, actor: Actor): string {
  switch (error.kind) {
    case 'rate_limited':
    case 'overloaded':
      return 'assistant.notice.busy';
    case 'auth':
      return 'assistant.notice.auth';
    case 'timeout':
      return 'assistant.notice.time';
    case 'network':
      return actor.role === 'owner'
        ? 'assistant.notice.unreachable_owner'
        : 'assistant.notice.unreachable';
    default:
      return 'assistant.notice.failed';
  }
}

/** The address a model call goes to: the settings' server, else the provider's own. */
function serverOf(settings: { provider: Provider; baseUrl: string | null }): string {
  return normaliseBaseUrl(settings.baseUrl ?? DEFAULT_BASE_URL[settings.provider]);
}

/**
 * The built-in assistant. Off until a provider and model are configured (stored per household,
 * overridden by the environment); while off nothing is sent anywhere. Every state it keeps (turns,
 * proposals, pace, usage) is in the database, so any process can confirm any proposal.
 */
export function createAssistant(deps: AssistantDeps): Assistant {
  const { core } = deps;
  const override = deps.config ?? overridesFromEnv();
  const fetchFn: FetchLike = deps.fetch ?? ((input, init) => fetch(input, init));
  const clock = deps.clock ?? (() => core.clock());
  const limits: Limits = { ...LIMITS, ...(deps.limits ?? {}) };
  const log = deps.log ?? ((message: string, error?: unknown) => console.error(message, error));
  const db = core.db.knex;
  const briefings = new BriefingCache();
  const pending = proposals(core, limits, clock);

  async function settingsFor(householdId: string) {
    return resolveSettings(await loadStoredSettings(db, householdId), override);
  }

  return {
    async isConfigured(householdId) {
      return (await settingsFor(householdId)) !== null;
    },

    async ask(actor, message, sink) {
      const started = clock();
      if (!actor.householdId || !actor.memberId)
        throw new OpError('forbidden', 'errors.no_household');
      const settings = await settingsFor(actor.householdId);
      if (!settings) throw new OpError('unavailable', 'assistant.off');
      const text = message.text.trim();
      if (Buffer.byteLength(text) > limits.messageBytes)
        throw new OpError('too_large', 'assistant.too_long', { max: limits.messageBytes });
      const files = message.attachments ?? [];
      const fileParts: Part[] = files.map((f) => attachmentPart(f, limits));
      if (text === '' && fileParts.length === 0)
        throw new OpError('invalid_input', 'assistant.empty');
      const slot = await takeSlot(
        db,
        { householdId: actor.householdId, memberId: actor.memberId },
        started,
        { burst: limits.rateBurst, intervalMs: limits.rateIntervalMs },
      );
      if (!slot.ok)
        throw new OpError('rate_limited', 'assistant.rate_limited', {
          seconds: Math.ceil(slot.retryAfterMs / 1000),
        });

      const acting = assistantActor(actor);
      const documentMode = fileParts.length > 0;
      const ops = opsFor(core.catalog, acting, 'assistant');
      const canCreate = ops.some((op) => op.name === 'create_subscription');
      const tools = documentMode ? (canCreate ? [REPORT_SUBSCRIPTIONS] : []) : toolSpecs(ops);
      const [briefing, memory] = await Promise.all([
        briefings.get(core, acting, started),
        loadMemory(db, pending, actor.memberId, started, {
          turns: limits.memoryTurns,
          ttlMs: limits.memoryTtlMs,
        }),
      ]);
      const system = systemPrompt({
        briefing,
        memory: memoryBlock(proposalFacts(memory, started)),
        language: actor.locale,
        documentMode,
      });
      const question: Message = {
        role: 'user',
        parts: [...fileParts, ...(text ? [{ type: 'text' as const, text }] : [])],
      };
      const client = createClient(settings, fetchFn, deps.http);
      const span = startQuestion(settings.provider, settings.model, {
        'exhale.channel': actor.channel,
        'exhale.attachments': files.length,
      });

      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), limits.messageTimeoutMs);
      let loop;
      try {
        loop = await runLoop({
          core,
          pending,
          client,
          actor: acting,
          ops: new Map(ops.map((op) => [op.name, op])),
          tools,
          documentMode,
          system,
          messages: [...memoryMessages(memory), question],
          limits,
          sink,
          span,
          signal: deadline.signal,
          now: clock,
          log,
        });
      } finally {
        clearTimeout(timer);
      }

      const outcome: Outcome =
        loop.stop === null
          ? 'answered'
          : loop.stop === 'refused'
            ? 'refused'
            : loop.stop === 'failed'
              ? 'failed'
              : 'limit';
      let noticeKey =
        loop.error && loop.stop === 'failed'
          ? errorNotice(loop.error, actor)
          : loop.stop
            ? NOTICE_OF_STOP[loop.stop]
            : null;
      if (loop.stop === 'refused' && loop.text !== '') noticeKey = null;
      if (!noticeKey && loop.changesCapped) noticeKey = 'assistant.notice.changes';
      if (!noticeKey && loop.text === '' && loop.cards.length === 0 && loop.screen === null)
        noticeKey = 'assistant.notice.empty';
      const notice = noticeKey
        ? t(actor.locale, noticeKey, {
            calls: limits.callsPerMessage,
            changes: limits.changesPerMessage,
            url: serverOf(settings),
          })
        : null;
      if (loop.error) log(`assistant: model call failed (${loop.error.kind})`, loop.error);

      const now = clock();
      const cost = costMicros(loop.usage, priceOf(settings.model, settings.prices));
      span.span.setAttributes({
        'gen_ai.usage.input_tokens': loop.usage.inputTokens,
        'gen_ai.usage.output_tokens': loop.usage.outputTokens,
        'exhale.calls': loop.calls,
        'exhale.outcome': outcome,
        'exhale.proposals': loop.cards.length,
      });
      if (cost !== null) span.span.setAttribute('exhale.cost_micros', cost);
      span.span.end();
      await recordUsage(db, {
        id: core.newId('asu'),
        householdId: actor.householdId,
        memberId: actor.memberId,
        channel: actor.channel,
        provider: settings.provider,
        model: settings.model,
        calls: loop.calls,
        usage: loop.usage,
        costMicros: cost,
        outcome,
        at: now,
      });
      const answer = [loop.text, ...loop.cards.map((c) => `[${c.title}]`)]
        .filter((s) => s !== '')
        .join('\n');
      await rememberTurn(db, {
        id: core.newId('ast'),
        householdId: actor.householdId,
        memberId: actor.memberId,
        question: text || `(${files.length} file)`,
        // A turn that produced nothing is remembered as such, not as the notice the member read
        // (the model would take an error sentence for something it said).
        answer: answer || `(no answer: ${outcome})`,
        now,
        ttlMs: limits.memoryTtlMs,
      });
      return { text: loop.text, cards: loop.cards, screen: loop.screen, notice, outcome };
    },

    async check(actor) {
      if (!actor.householdId) throw new OpError('forbidden', 'errors.no_household');
      const settings = await settingsFor(actor.householdId);
      if (!settings) return { ok: false, notice: t(actor.locale, 'assistant.off') };
      const client = createClient(settings, fetchFn, deps.http);
      const deadline = new AbortController();
      const timer = setTimeout(() => deadline.abort(), limits.callTimeoutMs);
      try {
        await client.complete({
          system: 'This is a connection test. Answer with the single word OK.',
          messages: [{ role: 'user', parts: [{ type: 'text', text: 'OK?' }] }],
          tools: [],
          toolChoice: 'auto',
          maxTokens: 16,
          signal: deadline.signal,
        });
        return { ok: true, model: settings.model };
      } catch (error) {
        log('assistant: the test call failed', error);
        const key = isLlmError(error) ? errorNotice(error, actor) : 'assistant.notice.failed';
        return {
          ok: false,
          notice: t(actor.locale, key, { calls: 0, changes: 0, url: serverOf(settings) }),
        };
      } finally {
        clearTimeout(timer);
      }
    },

    async tidyNames(actor, descriptions) {
      const { householdId, memberId } = actor;
      if (!householdId || !memberId) return null;
      try {
        const settings = await settingsFor(householdId);
        if (!settings) return null;
        const client = createClient(settings, fetchFn, deps.http);
        const tidied = await tidyNamesWith(client, descriptions, limits.tidyTimeoutMs, log);
        // One usage row, as for a question: the cost figures count every call made.
        await recordUsage(db, {
          id: core.newId('asu'),
          householdId,
          memberId,
          channel: actor.channel,
          provider: settings.provider,
          model: settings.model,
          calls: 1,
          usage: tidied.usage,
          costMicros: costMicros(tidied.usage, priceOf(settings.model, settings.prices)),
          outcome: tidied.outcome,
          at: clock(),
        });
        return tidied.names;
      } catch (error) {
        log('assistant: tidying merchant names failed', error);
        return null;
      }
    },

    async confirm(actor, proposalId) {
      const applied = await pending.confirm(assistantActor(actor), proposalId);
      const { card } = applied.change.payload;
      return {
        id: applied.change.id,
        op: applied.op.name,
        title: t(actor.locale, 'assistant.done', {
          title: card.title.replace(/^¿/, '').replace(/\?$/, ''),
        }),
        lines: card.lines,
        auditId: applied.result.auditId,
        undoUntil: applied.undoUntil,
        output: applied.result.output,
      };
    },

    async discard(actor, proposalId) {
      const discarded = await pending.discard(assistantActor(actor), proposalId);
      return { id: discarded.id, title: discarded.payload.card.title };
    },

    async undo(actor, proposalId) {
      const { change, undone } = await pending.undo(assistantActor(actor), proposalId);
      return { id: change.id, title: change.payload.card.title, undone };
    },
  };
}
