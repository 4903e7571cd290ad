import type { Actor } from '../kernel/actor.ts';
import type { Core } from '../kernel/core.ts';
import { isOpError } from '../errors/index.ts';
import { type AnyOp, isWrite } from '../kernel/op.ts';
import type { PendingChanges } from '../pending/index.ts';
import { reportedSubscriptions } from './documents.ts';
import { isLlmError, LlmError } from './errors.ts';
import { dataBlock, neutralJson, neutralText } from './guard.ts';
import type { Limits } from './limits.ts';
import {
  emptyUsage,
  type Message,
  type ModelClient,
  type Part,
  type TextSink,
  textOf,
  type ToolCall,
  type ToolSpec,
  toolCallsOf,
  type Usage,
} from './model.ts';
import { type Screen, showScreen } from './screen.ts';
import { endChat, failSpan, type QuestionSpan, startChat, startTool } from './telemetry.ts';
import { stripGateKeys } from './tools.ts';

/** A card for the member: a prepared change waiting for Confirm or Discard. */
export interface ProposalView {
  id: string;
  op: string;
  title: string;
  lines: string[];
  destructive: boolean;
  expiresAt: string;
}

/** Why the loop stopped early, if it did. */
export type Stop = 'calls' | 'time' | 'tokens' | 'refused' | 'failed';

export interface LoopResult {
  text: string;
  cards: ProposalView[];
  screen: Screen | null;
  calls: number;
  usage: Usage;
  stop: Stop | null;
  /** The model error that ended the loop, if one did. */
  error: LlmError | null;
  /** A change was refused because five were already prepared. */
  changesCapped: boolean;
}

export interface LoopInput {
  core: Core;
  /** Where writes become proposals (the assistant surface's pending changes). */
  pending: PendingChanges;
  client: ModelClient;
  actor: Actor;
  ops: Map<string, AnyOp>;
  tools: ToolSpec[];
  /** Document mode: the only tool is report_subscriptions. */
  documentMode: boolean;
  system: string;
  messages: Message[];
  limits: Limits;
  sink: TextSink | undefined;
  span: QuestionSpan;
  signal: AbortSignal;
  now: () => Date;
  log: (message: string, error?: unknown) => void;
}

/** The tool loop of one question: call the model, run its tool calls, repeat within the limits. */
export async function runLoop(input: LoopInput): Promise<LoopResult> {
  const { client, limits, span } = input;
  const messages = [...input.messages];
  const result: LoopResult = {
    text: '',
    cards: [],
    screen: null,
    calls: 0,
    usage: emptyUsage(),
    stop: null,
    error: null,
    changesCapped: false,
  };
  const texts: string[] = [];
  let streamedAny = false;
  for (let call = 1; call <= limits.callsPerMessage; call += 1) {
    const last = call === limits.callsPerMessage;
    let startedThisCall = false;
    // What this call streamed so far: kept (marked as cut) if the call then fails, so the finished
    // answer never takes back words the member already saw.
    let partial = '';
    // Text of successive calls reads as paragraphs, streamed and final alike.
    const sink: TextSink | undefined = input.sink && {
      onText: (delta) => {
        if (!startedThisCall && streamedAny) input.sink?.onText('\n\n');
        startedThisCall = true;
        streamedAny = true;
        partial += delta;
        input.sink?.onText(delta);
      },
    };
    const chat = startChat(span, client.provider, client.model, limits.maxTokensPerCall);
    const deadline = callDeadline(input.signal, limits.callTimeoutMs);
    const signal = deadline.signal;
    let response;
    try {
      result.calls += 1;
      response = await client.complete(
        {
          system: input.system,
          messages,
          tools: input.tools,
          toolChoice: last ? 'none' : 'auto',
          maxTokens: limits.maxTokensPerCall,
          signal,
        },
        sink,
      );
    } catch (error) {
      const llm = isLlmError(error)
        ? error
        : new LlmError('protocol', error instanceof Error ? error.message : String(error));
      deadline.done();
      failSpan(chat, llm.kind);
      if (partial.trim() !== '') texts.push(`${partial.trimEnd()}…`);
      result.error = llm;
      result.stop = input.signal.aborted ? 'time' : 'failed';
      break;
    }
    deadline.done();
    endChat(chat, response);
    add(result.usage, response.usage);
    const text = textOf(response.parts);
    if (text.trim() !== '') texts.push(text);
    messages.push({ role: 'assistant', parts: response.parts });
    const calls = toolCallsOf(response.parts);
    if (response.stop === 'refusal') {
      result.stop = 'refused';
      break;
    }
    if (calls.length === 0) {
      if (response.stop === 'max_tokens') result.stop = 'tokens';
      break;
    }
    if (last) {
      result.stop = 'calls';
      break;
    }
    const results: Part[] = [];
    for (const toolCall of calls) results.push(await runTool(input, toolCall, result));
    messages.push({ role: 'user', parts: results });
    if (input.signal.aborted) {
      result.stop = 'time';
      break;
    }
  }
  result.text = texts.join('\n\n');
  return result;
}

function add(total: Usage, usage: Usage): void {
  total.inputTokens += usage.inputTokens;
  total.outputTokens += usage.outputTokens;
  total.cacheReadTokens += usage.cacheReadTokens;
  total.cacheWriteTokens += usage.cacheWriteTokens;
}

const toolResult = (call: ToolCall, content: string, isError = false): Part => ({
  type: 'tool_result',
  callId: call.id,
  content,
  isError,
});

async function runTool(input: LoopInput, call: ToolCall, result: LoopResult): Promise<Part> {
  const span = startTool(input.span, call.name, call.id);
  try {
    const part = await toolPart(input, call, result);
    span.setAttribute('exhale.tool.error', part.type === 'tool_result' && part.isError);
    span.end();
    return part;
  } catch (error) {
    failSpan(span, isOpError(error) ? error.code : 'internal');
    input.log(`assistant: tool ${call.name} failed`, error);
    return toolResult(
      call,
      `${call.name} failed inside Exhale; try something else or tell the member.`,
      true,
    );
  }
}

async function toolPart(input: LoopInput, call: ToolCall, result: LoopResult): Promise<Part> {
  if (call.invalid !== undefined)
    return toolResult(
      call,
      `The arguments of ${call.name} were not a JSON object; call it again with valid JSON.`,
      true,
    );
  const args = stripGateKeys(call.arguments);
  if (input.documentMode) {
    if (call.name !== 'report_subscriptions')
      return toolResult(
        call,
        `Unknown tool ${call.name}: only report_subscriptions is available while reading a file.`,
        true,
      );
    const found = reportedSubscriptions(args);
    if (!found.ok) return toolResult(call, neutralText(found.problem), true);
    const notes: string[] = [];
    for (const create of found.creates)
      notes.push(await prepare(input, 'create_subscription', create, result));
    return toolResult(call, notes.length > 0 ? notes.join('\n') : 'Nothing reported.');
  }
  if (call.name === 'show_screen') {
    const shown = await showScreen(input.core, input.actor, args);
    if (!shown.ok) return toolResult(call, neutralText(shown.problem), true);
    result.screen = shown.screen;
    return toolResult(call, neutralText(shown.note));
  }
  const op = input.ops.get(call.name);
  if (!op)
    return toolResult(
      call,
      `Unknown tool ${call.name || '(no name)'}: use only the tools offered.`,
      true,
    );
  if (isWrite(op)) return toolResult(call, await prepare(input, op.name, args, result));
  try {
    const read = await input.core.invoke(op, input.actor, args, { surface: 'assistant' });
    const json = neutralJson(read.output);
    const bytes = Buffer.byteLength(json);
    if (bytes > input.limits.toolResultBytes) {
      return toolResult(
        call,
        `The result of ${op.name} is ${bytes} bytes, over the ${input.limits.toolResultBytes}-byte limit: ask for less (filters, a smaller limit, a page, a shorter period).`,
        true,
      );
    }
    return toolResult(call, dataBlock(op.name, json));
  } catch (error) {
    if (isOpError(error) && error.code !== 'internal')
      return toolResult(call, neutralText(oneLine(error.render(input.actor.locale))), true);
    throw error;
  }
}

/**
 * A multi-line error as one line for the model: "That input isn't valid: amount: …; name: …".
 * Its sentence may quote data (a name, the id given), so it goes to the model through neutralText.
 */
const oneLine = (text: string): string =>
  text.replace(/:\s*\n\s*-?\s*/g, ': ').replace(/\s*\n\s*-?\s*/g, '; ');

/** Dry-runs a write and stores it as a proposal with an Exhale-written card; returns what the model is told. */
async function prepare(
  input: LoopInput,
  opName: string,
  args: Record<string, unknown>,
  result: LoopResult,
): Promise<string> {
  const { core, actor, limits } = input;
  if (result.cards.length >= limits.changesPerMessage) {
    result.changesCapped = true;
    return `Not prepared: at most ${limits.changesPerMessage} changes per message. Tell the member to ask for the rest in another message.`;
  }
  const op = core.op(opName);
  let shown;
  try {
    shown = await input.pending.preview(actor, op, args);
  } catch (error) {
    if (isOpError(error) && error.code !== 'internal')
      return `Not prepared (${opName}): ${neutralText(oneLine(error.render(actor.locale)))}`;
    throw error;
  }
  if (shown.changes.length === 0) return `Not prepared (${opName}): it would change nothing.`;
  const { card } = shown;
  const proposal = await input.pending.store(actor, shown);
  result.cards.push({
    id: proposal.id,
    op: op.name,
    title: card.title,
    lines: card.lines,
    destructive: card.destructive,
    expiresAt: proposal.expiresAt,
  });
  const preview = neutralJson(shown.output);
  const detail =
    Buffer.byteLength(preview) <= 4_000 ? `\n${dataBlock(`${op.name}_preview`, preview)}` : '';
  // The card's title names records (data): neutralised like every data text the model reads.
  return `Prepared, not applied: proposal ${proposal.id}, card "${neutralText(card.title)}". The member confirms or discards it on the card; do not ask them to type a confirmation. New ids in the preview are not real until then.${detail}`;
}

/**
 * The signal of one model call: aborted by the message's own signal or by the call's time limit.
 * A plain timer and listener, not AbortSignal.any(AbortSignal.timeout()): on Node 20 that combined
 * signal can be collected while the call waits, and then never fires (nodejs/node#55428).
 */
export function callDeadline(
  parent: AbortSignal,
  ms: number,
): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(parent.reason);
  const timer = setTimeout(
    () => controller.abort(new DOMException('the call took too long', 'TimeoutError')),
    ms,
  );
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      parent.removeEventListener('abort', onAbort);
    },
  };
}
