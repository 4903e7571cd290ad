import { kindOfType, LlmError } from './errors.ts';
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
  type Usage,
} from './model.ts';
import { sseEvents } from './sse.ts';

/** The only version string the API takes for the Messages shape used here. */
const API_VERSION = '2023-06-01';

export interface AnthropicOptions {
  baseUrl: string;
  apiKey: string | null;
  model: string;
  http: HttpOptions;
}

type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined;

/** A client of the Anthropic Messages API (`POST {base}/messages`), whole or streamed. */
export function anthropicClient(options: AnthropicOptions): ModelClient {
  const url = `${options.baseUrl}/messages`;
  const headers: Record<string, string> = {
    'anthropic-version': API_VERSION,
    accept: 'application/json, text/event-stream',
  };
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  return {
    provider: 'anthropic',
    model: options.model,
    complete(request: ModelRequest, sink?: TextSink): Promise<ModelResponse> {
      const body = anthropicBody(options.model, request, sink !== undefined);
      return withOneRetry(
        options.http,
        async () => {
          const response = await postJson(options.http, url, headers, body, request.signal);
          if (sink === undefined || !isEventStream(response)) {
            const json = await readJson(response, request.signal);
            const parsed = parseAnthropicMessage(json);
            const text = parsed.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
            if (sink && text) sink.onText(text);
            return parsed;
          }
          const acc = new AnthropicStream(sink);
          try {
            for await (const event of sseEvents(response.body ?? emptyBody(), request.signal))
              acc.event(event.data);
          } catch (error) {
            throw acc.wrap(networkError(error, request.signal));
          }
          return acc.finish();
        },
        request.signal,
      );
    },
  };
}

async function readJson(response: Response, signal?: AbortSignal): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throw networkError(error, signal);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new LlmError('protocol', `not JSON: ${text.slice(0, 200)}`);
  }
}

function emptyBody(): ReadableStream<Uint8Array> {
  return new ReadableStream({ start: (c) => c.close() });
}

// === Request

export function anthropicBody(model: string, request: ModelRequest, stream: boolean): Json {
  const body: Json = {
    model,
    max_tokens: request.maxTokens,
    messages: request.messages.map(toWire),
  };
  if (request.system) body.system = request.system;
  if (request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({
      name: t.name,
      description: t.description,
      input_schema: t.parameters,
    }));
    body.tool_choice = { type: request.toolChoice };
  }
  if (stream) body.stream = true;
  return body;
}

function toWire(message: Message): Json {
  const blocks: Json[] = [];
  // Tool results go first in a user turn (text right after them invites empty replies).
  const parts =
    message.role === 'user' ? [...message.parts].sort((a, b) => rank(a) - rank(b)) : message.parts;
  for (const part of parts) {
    const block = blockOf(part);
    if (block) blocks.push(block);
  }
  return { role: message.role, content: blocks };
}

const rank = (p: Part): number => (p.type === 'tool_result' ? 0 : 1);

function blockOf(part: Part): Json | null {
  switch (part.type) {
    case 'text':
      return part.text === '' ? null : { type: 'text', text: part.text };
    case 'image':
      return {
        type: 'image',
        source: { type: 'base64', media_type: part.mediaType, data: part.data },
      };
    case 'pdf':
      return {
        type: 'document',
        source: { type: 'base64', media_type: 'application/pdf', data: part.data },
        title: part.name,
      };
    case 'tool_call':
      return { type: 'tool_use', id: part.id, name: part.name, input: part.arguments };
    case 'tool_result':
      return {
        type: 'tool_result',
        tool_use_id: part.callId,
        content: part.content,
        ...(part.isError ? { is_error: true } : {}),
      };
    case 'reasoning':
      // Signed blocks go back exactly as received; unsigned reasoning (another protocol's) cannot.
      if (part.redacted !== undefined) return { type: 'redacted_thinking', data: part.redacted };
      if (part.signature !== undefined)
        return { type: 'thinking', thinking: part.text, signature: part.signature };
      return null;
    default: {
      const unreachable: never = part;
      return unreachable;
    }
  }
}

// === Response

export function stopOf(raw: string | null): StopReason {
  switch (raw) {
    case 'end_turn':
    case 'tool_use':
    case 'max_tokens':
    case 'stop_sequence':
    case 'refusal':
    case 'pause_turn':
      return raw;
    case 'model_context_window_exceeded':
      return 'context_window';
    default:
      return 'other';
  }
}

/** Overwrites the counters present (stream totals are cumulative: never add them up). */
function applyUsage(
  usage: Usage,
  raw: unknown,
  parts: { input?: number; cacheRead?: number; cacheWrite?: number },
): void {
  if (!isObj(raw)) return;
  const input = num(raw.input_tokens);
  const output = num(raw.output_tokens);
  const cacheRead = num(raw.cache_read_input_tokens);
  const cacheWrite = num(raw.cache_creation_input_tokens);
  if (input !== undefined) parts.input = input;
  if (cacheRead !== undefined) parts.cacheRead = cacheRead;
  if (cacheWrite !== undefined) parts.cacheWrite = cacheWrite;
  if (output !== undefined) usage.outputTokens = output;
  usage.cacheReadTokens = parts.cacheRead ?? 0;
  usage.cacheWriteTokens = parts.cacheWrite ?? 0;
  usage.inputTokens = (parts.input ?? 0) + usage.cacheReadTokens + usage.cacheWriteTokens;
}

/** A whole (non-streamed) Messages response. */
export function parseAnthropicMessage(json: unknown): ModelResponse {
  if (!isObj(json)) throw new LlmError('protocol', 'the answer is not an object');
  if (json.type === 'error') {
    const err = isObj(json.error) ? json.error : {};
    throw new LlmError(kindOfType(str(err.type)), str(err.message) ?? 'error', {
      code: str(err.type),
    });
  }
  if (!Array.isArray(json.content)) throw new LlmError('protocol', 'the answer has no content');
  const parts: Part[] = [];
  for (const block of json.content) {
    if (!isObj(block)) continue;
    const part = partOfBlock(block, block.input);
    if (part) parts.push(part);
  }
  const usage = emptyUsage();
  applyUsage(usage, json.usage, {});
  const rawStop = str(json.stop_reason) ?? null;
  return {
    id: str(json.id) ?? null,
    model: str(json.model) ?? null,
    parts,
    stop: stopOf(rawStop),
    rawStop,
    usage,
  };
}

function partOfBlock(block: Json, input: unknown): Part | null {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: str(block.text) ?? '' };
    case 'thinking':
      return {
        type: 'reasoning',
        text: str(block.thinking) ?? '',
        signature: str(block.signature) ?? '',
      };
    case 'redacted_thinking':
      return { type: 'reasoning', text: '', redacted: str(block.data) ?? '' };
    case 'tool_use': {
      const { args, invalid } = parseArguments(input);
      return {
        type: 'tool_call',
        id: str(block.id) ?? '',
        name: str(block.name) ?? '',
        arguments: args,
        ...(invalid !== undefined ? { invalid } : {}),
      };
    }
    default:
      // Server tools, their results, compaction and fallback markers: not used by Exhale, ignored.
      return null;
  }
}

interface OpenBlock {
  kind: 'text' | 'thinking' | 'redacted' | 'tool' | 'other';
  text: string;
  signature: string;
  json: string;
  block: Json;
  closed: boolean;
}

/** The state machine of one streamed message: blocks by index, usage overwritten, stop reason. */
export class AnthropicStream {
  private blocks = new Map<number, OpenBlock>();
  private id: string | null = null;
  private model: string | null = null;
  private rawStop: string | null = null;
  private usage = emptyUsage();
  private usageParts: { input?: number; cacheRead?: number; cacheWrite?: number } = {};
  private stopped = false;
  private emitted = false;

  constructor(private readonly sink?: TextSink) {}

  /** Feeds one `data:` payload. */
  event(data: string): void {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      throw this.wrap(new LlmError('protocol', `an event is not JSON: ${data.slice(0, 200)}`));
    }
    if (!isObj(json)) return;
    switch (json.type) {
      case 'message_start': {
        const message = isObj(json.message) ? json.message : {};
        // A second message_start means the server restarted the message: start over.
        this.blocks = new Map();
        this.rawStop = null;
        this.usage = emptyUsage();
        this.usageParts = {};
        this.id = str(message.id) ?? null;
        this.model = str(message.model) ?? null;
        applyUsage(this.usage, message.usage, this.usageParts);
        return;
      }
      case 'content_block_start': {
        const index = num(json.index) ?? this.blocks.size;
        const block = isObj(json.content_block) ? json.content_block : {};
        this.blocks.set(index, openBlock(block));
        return;
      }
      case 'content_block_delta': {
        const block = this.blocks.get(num(json.index) ?? -1);
        const delta = isObj(json.delta) ? json.delta : {};
        if (block) this.delta(block, delta);
        return;
      }
      case 'content_block_stop': {
        const block = this.blocks.get(num(json.index) ?? -1);
        if (block) block.closed = true;
        return;
      }
      case 'message_delta': {
        const delta = isObj(json.delta) ? json.delta : {};
        const stop = str(delta.stop_reason);
        if (stop) this.rawStop = stop;
        applyUsage(this.usage, json.usage, this.usageParts);
        return;
      }
      case 'message_stop':
        this.stopped = true;
        return;
      case 'error': {
        const err = isObj(json.error) ? json.error : {};
        const type = str(err.type);
        throw this.wrap(
          new LlmError(kindOfType(type), str(err.message) ?? 'error in stream', { code: type }),
        );
      }
      default:
        // `ping` and event types newer than this client.
        return;
    }
  }

  private delta(block: OpenBlock, delta: Json): void {
    switch (delta.type) {
      case 'text_delta': {
        const text = str(delta.text) ?? '';
        block.text += text;
        if (text && block.kind === 'text') {
          this.emitted = true;
          this.sink?.onText(text);
        }
        return;
      }
      case 'input_json_delta':
        block.json += str(delta.partial_json) ?? '';
        return;
      case 'thinking_delta':
        block.text += str(delta.thinking) ?? '';
        return;
      case 'signature_delta':
        block.signature += str(delta.signature) ?? '';
        return;
      default:
        return;
    }
  }

  /** Marks an error that came after text reached the member (no retry then). */
  wrap(error: LlmError): LlmError {
    if (!this.emitted || error.options.afterOutput) return error;
    return new LlmError(error.kind, error.detail, { ...error.options, afterOutput: true });
  }

  finish(): ModelResponse {
    if (!this.stopped && this.rawStop === null)
      throw this.wrap(new LlmError('incomplete', 'the stream ended before the message did'));
    const parts: Part[] = [];
    for (const index of [...this.blocks.keys()].sort((a, b) => a - b)) {
      const open = this.blocks.get(index);
      if (!open) continue;
      const part = closeBlock(open);
      if (part) parts.push(part);
    }
    return {
      id: this.id,
      model: this.model,
      parts,
      stop: stopOf(this.rawStop),
      rawStop: this.rawStop,
      usage: this.usage,
    };
  }
}

function openBlock(block: Json): OpenBlock {
  const kind =
    block.type === 'text'
      ? 'text'
      : block.type === 'thinking'
        ? 'thinking'
        : block.type === 'redacted_thinking'
          ? 'redacted'
          : block.type === 'tool_use'
            ? 'tool'
            : 'other';
  return {
    kind,
    text:
      kind === 'text'
        ? (str(block.text) ?? '')
        : kind === 'thinking'
          ? (str(block.thinking) ?? '')
          : '',
    signature: str(block.signature) ?? '',
    json: '',
    block,
    closed: false,
  };
}

function closeBlock(open: OpenBlock): Part | null {
  switch (open.kind) {
    case 'text':
      return { type: 'text', text: open.text };
    case 'thinking':
      return { type: 'reasoning', text: open.text, signature: open.signature };
    case 'redacted':
      return { type: 'reasoning', text: '', redacted: str(open.block.data) ?? '' };
    case 'tool': {
      // Input arrives as JSON fragments; an unclosed block (cut by max_tokens) is reported invalid.
      const initial =
        isObj(open.block.input) && Object.keys(open.block.input).length > 0
          ? open.block.input
          : undefined;
      const raw = open.json !== '' ? open.json : (initial ?? '');
      const { args, invalid } =
        open.closed || open.json === '' ? parseArguments(raw) : { args: {}, invalid: open.json };
      return {
        type: 'tool_call',
        id: str(open.block.id) ?? '',
        name: str(open.block.name) ?? '',
        arguments: args,
        ...(invalid !== undefined ? { invalid } : {}),
      };
    }
    case 'other':
      return null;
    default: {
      const unreachable: never = open.kind;
      return unreachable;
    }
  }
}
