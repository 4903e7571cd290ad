/**
 * The provider-neutral message model. Both clients translate it to their wire protocol and back;
 * nothing above the clients knows which protocol is in use.
 */

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';

export type Part =
  | { type: 'text'; text: string }
  /** Base64 without a `data:` prefix. */
  | { type: 'image'; mediaType: ImageType; data: string }
  | { type: 'pdf'; data: string; name: string }
  | ToolCall
  | { type: 'tool_result'; callId: string; content: string; isError: boolean }
  | Reasoning;

export interface ToolCall {
  type: 'tool_call';
  id: string;
  name: string;
  /** Parsed arguments; `{}` when the model sent none. */
  arguments: Record<string, unknown>;
  /** The raw argument text when it was not a JSON object (truncated or invalid): the call is not run. */
  invalid?: string | undefined;
  /** Opaque provider data that must travel back with the call (Gemini's thought signature). */
  echo?: Record<string, unknown> | undefined;
}

/**
 * A reasoning block. Anthropic's signed thinking (and redacted thinking) must be sent back
 * byte-for-byte within one question; it is never stored or replayed in a later question.
 */
export interface Reasoning {
  type: 'reasoning';
  text: string;
  signature?: string | undefined;
  /** Anthropic `redacted_thinking` data. */
  redacted?: string | undefined;
}

export interface Message {
  role: 'user' | 'assistant';
  parts: Part[];
}

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments (an object schema). */
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  system: string;
  messages: Message[];
  tools: ToolSpec[];
  /** `none`: tools stay defined (the history may hold calls) but the model must answer in text. */
  toolChoice: 'auto' | 'none';
  maxTokens: number;
  /** Aborts the call (the per-call and per-message time limits). */
  signal?: AbortSignal | undefined;
}

/** Why the model stopped, normalised; `raw` keeps the provider's own word. */
export type StopReason =
  | 'end_turn'
  | 'tool_use'
  | 'max_tokens'
  | 'stop_sequence'
  | 'refusal'
  | 'pause_turn'
  | 'context_window'
  | 'content_filter'
  | 'other';

export interface Usage {
  /** Every input token billed, cached or not. */
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

export interface ModelResponse {
  id: string | null;
  model: string | null;
  parts: Part[];
  stop: StopReason;
  rawStop: string | null;
  usage: Usage;
}

/** Receives text as the model writes it. */
export interface TextSink {
  onText(delta: string): void;
}

export interface ModelClient {
  readonly provider: 'anthropic' | 'openai';
  readonly model: string;
  /** One model call; streams text to `sink` when given, otherwise asks for a whole answer. */
  complete(request: ModelRequest, sink?: TextSink): Promise<ModelResponse>;
}

export const emptyUsage = (): Usage => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
});

export function textOf(parts: readonly Part[]): string {
  return parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

export function toolCallsOf(parts: readonly Part[]): ToolCall[] {
  return parts.filter((p): p is ToolCall => p.type === 'tool_call');
}

/** Parses tool arguments: empty is `{}`, an object is kept, anything else is an invalid call. */
export function parseArguments(raw: unknown): { args: Record<string, unknown>; invalid?: string } {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw))
    return { args: raw as Record<string, unknown> };
  const text =
    typeof raw === 'string' ? raw : raw === undefined || raw === null ? '' : JSON.stringify(raw);
  if (text.trim() === '') return { args: {} };
  try {
    const parsed = JSON.parse(text) as unknown;
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      return { args: parsed as Record<string, unknown> };
  } catch {
    // falls through: reported as an invalid call, never thrown
  }
  return { args: {}, invalid: text };
}
