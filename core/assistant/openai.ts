import { kindOfStatus, kindOfType, LlmError } from './errors.ts';
import { type HttpOptions, isEventStream, networkError, postJson, withOneRetry } from './http.ts';
import {
  emptyUsage,
  type Message,
  type ModelClient,
  type ModelRequest,
  type ModelResponse,
  type Part,
  parseArguments,
  type StopReason,
  type TextSink,
  type ToolCall,
  type Usage,
} from './model.ts';
import { sseEvents } from './sse.ts';

export interface OpenAiOptions {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  http: HttpOptions;
}

type Json = Record<string, unknown>;
type TokenField = 'max_tokens' | 'max_completion_tokens';

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

/**
 * What an endpoint was found to reject, learned from its errors and kept for the life of the
 * process (per base URL and model), so the second question does not pay for the first's lesson.
 */
interface Quirks {
  tokenField: TokenField;
  streamOptions: boolean;
}
const learned = new Map<string, Quirks>();

/** OpenAI and OpenRouter want `max_completion_tokens` (reasoning models refuse `max_tokens`); the rest document `max_tokens`. */
function defaultTokenField(baseUrl: string): TokenField {
  const host = new URL(baseUrl).hostname;
  return host === 'api.openai.com' || host === 'openrouter.ai'
    ? 'max_completion_tokens'
    : 'max_tokens';
}

/** A client of OpenAI-compatible chat completions (`POST {base}/chat/completions`), whole or streamed. */
export function openAiClient(options: OpenAiOptions): ModelClient {
  const url = `${options.baseUrl}/chat/completions`;
  const headers: Record<string, string> = { accept: 'application/json, text/event-stream' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const key = `${options.baseUrl}|${options.model}`;
  const quirks = (): Quirks => {
    let q = learned.get(key);
    if (!q) {
      q = { tokenField: defaultTokenField(options.baseUrl), streamOptions: true };
      learned.set(key, q);
    }
    return q;
  };

  const once = async (
    request: ModelRequest,
    sink: TextSink | undefined,
  ): Promise<ModelResponse> => {
    const body = openAiBody(options.model, request, sink !== undefined, quirks());
    const response = await postJson(options.http, url, headers, body, request.signal);
    if (sink === undefined || !isEventStream(response)) {
      let text: string;
      try {
        text = await response.text();
      } catch (error) {
        throw networkError(error, request.signal);
      }
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new LlmError('protocol', `not JSON: ${text.slice(0, 200)}`);
      }
      const parsed = parseChatCompletion(json);
      const answer = parsed.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
      if (sink && answer) sink.onText(answer);
      return parsed;
    }
    const acc = new OpenAiStream(sink);
    try {
      for await (const event of sseEvents(
        response.body ?? new ReadableStream({ start: (c) => c.close() }),
        request.signal,
      )) {
        if (acc.event(event.event, event.data) === 'done') break;
      }
    } catch (error) {
      throw acc.wrap(networkError(error, request.signal));
    }
    return acc.finish();
  };

  /** Adapts to what the endpoint refuses (at most once per quirk), then gives up with its error. */
  const adaptive = async (
    request: ModelRequest,
    sink: TextSink | undefined,
  ): Promise<ModelResponse> => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await once(request, sink);
      } catch (error) {
        if (
          !(error instanceof LlmError) ||
          error.kind !== 'bad_request' ||
          attempt >= 2 ||
          !learn(quirks(), error.detail, sink !== undefined)
        )
          throw error;
      }
    }
  };

  return {
    provider: 'openai',
    model: options.model,
    complete: (request, sink) =>
      withOneRetry(options.http, () => adaptive(request, sink), request.signal),
  };
}

/** Words servers use when they refuse a field outright (not when they refuse its value). */
const REJECTED = /unsupported|not supported|extra|not permitted|unrecognized|unknown|not allowed/i;

/** Changes the quirks an error asks for; false when the error is about something else. */
function learn(q: Quirks, detail: string, streaming: boolean): boolean {
  if (streaming && q.streamOptions && detail.includes('stream_options')) {
    q.streamOptions = false;
    return true;
  }
  const other = q.tokenField === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
  if (detail.includes(q.tokenField) && (detail.includes(other) || REJECTED.test(detail))) {
    q.tokenField = q.tokenField === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
    return true;
  }
  return false;
}

// === Request

function openAiBody(model: string, request: ModelRequest, stream: boolean, quirks: Quirks): Json {
  const messages: Json[] = [];
  if (request.system) messages.push({ role: 'system', content: request.system });
  for (const message of request.messages) messages.push(...toWire(message));
  const body: Json = { model, messages, [quirks.tokenField]: request.maxTokens };
  if (request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    body.tool_choice = request.toolChoice;
  }
  if (stream) {
    body.stream = true;
    if (quirks.streamOptions) body.stream_options = { include_usage: true };
  }
  return body;
}

/** The request body as sent (exported for tests and the byte count of the benchmark). */
export function openAiRequestBody(
  model: string,
  request: ModelRequest,
  stream: boolean,
  tokenField: TokenField = 'max_tokens',
): Json {
  return openAiBody(model, request, stream, { tokenField, streamOptions: true });
}

function toWire(message: Message): Json[] {
  if (message.role === 'assistant') {
    const text = message.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
    const calls = message.parts.filter((p): p is ToolCall => p.type === 'tool_call');
    const out: Json = { role: 'assistant', content: text === '' && calls.length > 0 ? null : text };
    if (calls.length > 0) {
      out.tool_calls = calls.map((c) => ({
        ...(c.echo ?? {}),
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: JSON.stringify(c.arguments) },
      }));
    }
    // Reasoning is not sent back: most servers reject unknown fields, none require it here.
    return [out];
  }
  const out: Json[] = [];
  const content: Json[] = [];
  for (const part of message.parts) {
    switch (part.type) {
      case 'tool_result':
        // The protocol has no error flag on tool messages: say it in the text.
        out.push({
          role: 'tool',
          tool_call_id: part.callId,
          content: part.isError ? `Error: ${part.content}` : part.content,
        });
        break;
      case 'text':
        if (part.text !== '') content.push({ type: 'text', text: part.text });
        break;
      case 'image':
        content.push({
          type: 'image_url',
          image_url: { url: `data:${part.mediaType};base64,${part.data}` },
        });
        break;
      case 'pdf':
        content.push({
          type: 'file',
          file: { filename: part.name, file_data: `data:application/pdf;base64,${part.data}` },
        });
        break;
      case 'tool_call':
      case 'reasoning':
        break;
      default: {
        const unreachable: never = part;
        return unreachable;
      }
    }
  }
  if (content.length > 0) {
    const onlyText = content.every((c) => c.type === 'text');
    out.push({
      role: 'user',
      content: onlyText ? content.map((c) => String(c.text)).join('\n\n') : content,
    });
  }
  return out;
}

// === Response

function stopOf(raw: string | null, hasCalls: boolean, refused: boolean): StopReason {
  if (refused) return 'refusal';
  if (hasCalls) return 'tool_use';
  switch (raw) {
    case 'stop':
      return 'end_turn';
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'content_filter':
      return 'content_filter';
    default:
      return 'other';
  }
}

function usageOf(raw: unknown, into: Usage): void {
  if (!isObj(raw)) return;
  const input = num(raw.prompt_tokens);
  const output = num(raw.completion_tokens);
  if (input !== undefined) into.inputTokens = input;
  if (output !== undefined) into.outputTokens = output;
  const details = isObj(raw.prompt_tokens_details) ? raw.prompt_tokens_details : {};
  const cached = num(details.cached_tokens);
  if (cached !== undefined) into.cacheReadTokens = cached;
}

function errorOfChunk(error: unknown, fallback: string): LlmError {
  const err = isObj(error) ? error : {};
  const code = err.code;
  const type = str(err.type) ?? (typeof code === 'string' ? code : undefined);
  const message = str(err.message) ?? fallback;
  const kind =
    typeof code === 'number'
      ? kindOfStatus(code)
      : type === 'invalid_request_error' || type === 'tool_use_failed'
        ? 'bad_request'
        : kindOfType(type);
  return new LlmError(kind, message, {
    code: type ?? (typeof code === 'number' ? String(code) : undefined),
    status: typeof code === 'number' ? code : undefined,
  });
}

/** A whole chat.completion body. */
export function parseChatCompletion(json: unknown): ModelResponse {
  if (!isObj(json)) throw new LlmError('protocol', 'the answer is not an object');
  if (json.error !== undefined && json.error !== null) throw errorOfChunk(json.error, 'error');
  if (json.object === 'error') throw errorOfChunk(json, 'error');
  const choices = Array.isArray(json.choices) ? json.choices : [];
  const choice = choices.find((c) => isObj(c) && (c.index === undefined || c.index === 0));
  if (!isObj(choice)) throw new LlmError('protocol', 'the answer has no choice');
  const message = isObj(choice.message) ? choice.message : {};
  const parts: Part[] = [];
  const reasoning =
    str(message.reasoning_content) ?? str(message.reasoning) ?? contentThinking(message.content);
  if (reasoning) parts.push({ type: 'reasoning', text: reasoning });
  const text = contentText(message.content);
  const refusal = str(message.refusal);
  if (text) parts.push({ type: 'text', text });
  else if (refusal) parts.push({ type: 'text', text: refusal });
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
  calls.forEach((raw, i) => {
    if (!isObj(raw)) return;
    const fn = isObj(raw.function) ? raw.function : {};
    const { args, invalid } = parseArguments(fn.arguments);
    parts.push({
      type: 'tool_call',
      id: str(raw.id) || `call_${i + 1}`,
      name: str(fn.name) ?? '',
      arguments: args,
      ...(invalid !== undefined ? { invalid } : {}),
      ...(isObj(raw.extra_content) ? { echo: { extra_content: raw.extra_content } } : {}),
    });
  });
  const usage = emptyUsage();
  usageOf(json.usage, usage);
  const rawStop = str(choice.finish_reason) ?? null;
  return {
    id: str(json.id) ?? null,
    model: str(json.model) ?? null,
    parts,
    stop: stopOf(
      rawStop,
      parts.some((p) => p.type === 'tool_call'),
      !text && Boolean(refusal),
    ),
    rawStop,
    usage,
  };
}

/** Text of a content string or array of parts (Mistral streams `[{type:'text',text}]`). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((c) => (isObj(c) && c.type === 'text' && typeof c.text === 'string' ? c.text : ''))
    .join('');
}

/** Reasoning inside content parts (Mistral's `{type:'thinking', thinking:[{type:'text',text}]}`). */
function contentThinking(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const text = content
    .map((c) => (isObj(c) && c.type === 'thinking' ? contentText(c.thinking) : ''))
    .join('');
  return text === '' ? undefined : text;
}

interface Slot {
  id: string;
  name: string;
  args: string;
  echo?: Json;
}

/**
 * The state machine of one streamed completion. Tool calls are assembled from fragments keyed by
 * index, else by id, else by position; ids and names are never overwritten by empty ones; a new id
 * on a used index starts a new call; arguments may come as a string or (some servers) an object.
 */
export class OpenAiStream {
  private text = '';
  private refusal = '';
  private reasoning = '';
  private slots: Slot[] = [];
  private byIndex = new Map<number, Slot>();
  private rawStop: string | null = null;
  private usage = emptyUsage();
  private id: string | null = null;
  private model: string | null = null;
  private done = false;
  private emitted = false;

  constructor(private readonly sink?: TextSink) {}

  /** Feeds one event; 'done' at `[DONE]`. */
  event(name: string, data: string): 'done' | 'more' {
    if (data.trim() === '[DONE]') {
      this.done = true;
      return 'done';
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      throw this.wrap(new LlmError('protocol', `a chunk is not JSON: ${data.slice(0, 200)}`));
    }
    if (!isObj(json)) return 'more';
    if (json.error !== undefined && json.error !== null)
      throw this.wrap(errorOfChunk(json.error, 'error in stream'));
    if (json.object === 'error' || name === 'error')
      throw this.wrap(errorOfChunk(json, 'error in stream'));
    this.id ??= str(json.id) ?? null;
    this.model ??= str(json.model) ?? null;
    if (isObj(json.usage)) usageOf(json.usage, this.usage);
    else if (isObj(json.x_groq) && isObj(json.x_groq.usage)) usageOf(json.x_groq.usage, this.usage);
    const choices = Array.isArray(json.choices) ? json.choices : [];
    for (const choice of choices) {
      if (!isObj(choice) || (choice.index !== undefined && choice.index !== 0)) continue;
      const delta = isObj(choice.delta) ? choice.delta : {};
      const content = contentText(delta.content);
      if (content) {
        this.text += content;
        this.emitted = true;
        this.sink?.onText(content);
      }
      const refusal = str(delta.refusal);
      if (refusal) this.refusal += refusal;
      const reasoning =
        str(delta.reasoning_content) ?? str(delta.reasoning) ?? contentThinking(delta.content);
      if (reasoning) this.reasoning += reasoning;
      if (Array.isArray(delta.tool_calls))
        delta.tool_calls.forEach((tc, position) => this.toolDelta(tc, position));
      const finish = str(choice.finish_reason);
      if (finish) this.rawStop = finish;
    }
    return 'more';
  }

  private toolDelta(raw: unknown, position: number): void {
    if (!isObj(raw)) return;
    const fn = isObj(raw.function) ? raw.function : {};
    const id = str(raw.id) ?? '';
    const name = str(fn.name) ?? '';
    const index = num(raw.index);
    let slot: Slot | undefined;
    if (index !== undefined) {
      slot = this.byIndex.get(index);
      if (slot && id !== '' && slot.id !== '' && slot.id !== id) slot = undefined;
    } else if (id !== '') {
      slot = this.slots.find((s) => s.id === id);
    } else {
      const latest = this.slots.at(-1);
      // Without index or id, a named fragment after a named call (or a later entry of the same delta) is a new call.
      slot = position > 0 || (latest && name !== '' && latest.name !== '') ? undefined : latest;
    }
    if (!slot) {
      slot = { id: '', name: '', args: '' };
      this.slots.push(slot);
    }
    if (index !== undefined) this.byIndex.set(index, slot);
    if (id !== '' && slot.id === '') slot.id = id;
    if (name !== '' && slot.name === '') slot.name = name;
    const args = fn.arguments;
    if (typeof args === 'string') slot.args += args;
    else if (isObj(args)) slot.args = JSON.stringify(args);
    if (isObj(raw.extra_content)) slot.echo = { extra_content: raw.extra_content };
  }

  wrap(error: LlmError): LlmError {
    if (!this.emitted || error.options.afterOutput) return error;
    return new LlmError(error.kind, error.detail, { ...error.options, afterOutput: true });
  }

  finish(): ModelResponse {
    if (!this.done && this.rawStop === null)
      throw this.wrap(new LlmError('incomplete', 'the stream ended without a finish reason'));
    const parts: Part[] = [];
    if (this.reasoning) parts.push({ type: 'reasoning', text: this.reasoning });
    if (this.text) parts.push({ type: 'text', text: this.text });
    else if (this.refusal) parts.push({ type: 'text', text: this.refusal });
    this.slots.forEach((slot, i) => {
      const { args, invalid } = parseArguments(slot.args);
      parts.push({
        type: 'tool_call',
        id: slot.id || `call_${i + 1}`,
        name: slot.name,
        arguments: args,
        ...(invalid !== undefined ? { invalid } : {}),
        ...(slot.echo ? { echo: slot.echo } : {}),
      });
    });
    return {
      id: this.id,
      model: this.model,
      parts,
      stop: stopOf(this.rawStop, this.slots.length > 0, !this.text && this.refusal !== ''),
      rawStop: this.rawStop,
      usage: this.usage,
    };
  }
}
