import type { FakeReply, Handler, RecordedRequest } from './llmServer.ts';

/**
 * A scripted model: each request gets the next turn of a script, spoken in the protocol the client
 * uses (Anthropic Messages or OpenAI chat completions), streamed when the request asks for it.
 * Protocol fidelity comes from the recorded fixtures; this fake is for conversation tests.
 */
export interface ScriptTurn {
  text?: string;
  calls?: Array<{ name: string; args?: unknown; id?: string }>;
  /** Signed thinking before the answer (Anthropic only). */
  thinking?: { text: string; signature: string };
  refusal?: boolean;
  usage?: { input: number; output: number };
  /** Answer this exactly instead (an error status, a delay, a cut stream). */
  reply?: FakeReply;
}

export type ScriptStep = ScriptTurn | ((request: RecordedRequest) => ScriptTurn);

export type ScriptProtocol = 'anthropic' | 'openai';

const SSE = { 'content-type': 'text/event-stream' };
const JSON_TYPE = { 'content-type': 'application/json' };

export function anthropicSse(events: Array<Record<string, unknown>>): string {
  return events.map((e) => `event: ${String(e.type)}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

export function openAiSse(chunks: Array<Record<string, unknown>>, done = true): string {
  return (
    chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '')
  );
}

let counter = 0;
const callId = (): string => `call${String((counter += 1)).padStart(6, '0')}`;

export function anthropicReply(turn: ScriptTurn, stream: boolean): FakeReply {
  const calls = (turn.calls ?? []).map((c) => ({
    id: c.id ?? `toolu_${callId()}`,
    name: c.name,
    input: c.args ?? {},
  }));
  const stop = turn.refusal ? 'refusal' : calls.length > 0 ? 'tool_use' : 'end_turn';
  const usage = { input_tokens: turn.usage?.input ?? 100, output_tokens: turn.usage?.output ?? 20 };
  if (!stream) {
    const content: Array<Record<string, unknown>> = [];
    if (turn.thinking)
      content.push({
        type: 'thinking',
        thinking: turn.thinking.text,
        signature: turn.thinking.signature,
      });
    if (turn.text) content.push({ type: 'text', text: turn.text });
    for (const c of calls) content.push({ type: 'tool_use', ...c });
    return {
      headers: JSON_TYPE,
      body: JSON.stringify({
        id: 'msg_fake',
        type: 'message',
        role: 'assistant',
        model: 'fake',
        content,
        stop_reason: stop,
        usage,
      }),
    };
  }
  const events: Array<Record<string, unknown>> = [
    {
      type: 'message_start',
      message: {
        id: 'msg_fake',
        type: 'message',
        role: 'assistant',
        model: 'fake',
        content: [],
        stop_reason: null,
        usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
      },
    },
  ];
  let index = 0;
  if (turn.thinking) {
    events.push({
      type: 'content_block_start',
      index,
      content_block: { type: 'thinking', thinking: '', signature: '' },
    });
    events.push({
      type: 'content_block_delta',
      index,
      delta: { type: 'thinking_delta', thinking: turn.thinking.text },
    });
    events.push({
      type: 'content_block_delta',
      index,
      delta: { type: 'signature_delta', signature: turn.thinking.signature },
    });
    events.push({ type: 'content_block_stop', index });
    index += 1;
  }
  if (turn.text) {
    events.push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    for (const piece of turn.text.match(/.{1,12}/gs) ?? [])
      events.push({
        type: 'content_block_delta',
        index,
        delta: { type: 'text_delta', text: piece },
      });
    events.push({ type: 'content_block_stop', index });
    index += 1;
  }
  for (const c of calls) {
    events.push({
      type: 'content_block_start',
      index,
      content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} },
    });
    const json = JSON.stringify(c.input);
    events.push({
      type: 'content_block_delta',
      index,
      delta: { type: 'input_json_delta', partial_json: '' },
    });
    for (const piece of json.match(/.{1,9}/gs) ?? [])
      events.push({
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: piece },
      });
    events.push({ type: 'content_block_stop', index });
    index += 1;
  }
  events.push({ type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage });
  events.push({ type: 'message_stop' });
  return { headers: SSE, body: anthropicSse(events) };
}

export function openAiReply(turn: ScriptTurn, stream: boolean): FakeReply {
  const calls = (turn.calls ?? []).map((c) => ({
    id: c.id ?? callId(),
    type: 'function',
    function: { name: c.name, arguments: JSON.stringify(c.args ?? {}) },
  }));
  const finish = calls.length > 0 ? 'tool_calls' : 'stop';
  const usage = {
    prompt_tokens: turn.usage?.input ?? 100,
    completion_tokens: turn.usage?.output ?? 20,
    total_tokens: (turn.usage?.input ?? 100) + (turn.usage?.output ?? 20),
  };
  const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model: 'fake' };
  if (!stream) {
    const message: Record<string, unknown> = {
      role: 'assistant',
      content: turn.refusal ? null : (turn.text ?? null),
    };
    if (turn.refusal) message.refusal = turn.text ?? 'I cannot help with that.';
    if (calls.length > 0) message.tool_calls = calls;
    return {
      headers: JSON_TYPE,
      body: JSON.stringify({
        ...base,
        object: 'chat.completion',
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      }),
    };
  }
  const chunks: Array<Record<string, unknown>> = [
    {
      ...base,
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
    },
  ];
  if (turn.refusal)
    chunks.push({
      ...base,
      choices: [
        {
          index: 0,
          delta: { refusal: turn.text ?? 'I cannot help with that.' },
          finish_reason: null,
        },
      ],
    });
  else
    for (const piece of turn.text?.match(/.{1,12}/gs) ?? [])
      chunks.push({
        ...base,
        choices: [{ index: 0, delta: { content: piece }, finish_reason: null }],
      });
  calls.forEach((c, i) => {
    chunks.push({
      ...base,
      choices: [
        {
          index: 0,
          delta: {
            tool_calls: [
              {
                index: i,
                id: c.id,
                type: 'function',
                function: { name: c.function.name, arguments: '' },
              },
            ],
          },
          finish_reason: null,
        },
      ],
    });
    for (const piece of c.function.arguments.match(/.{1,9}/gs) ?? []) {
      chunks.push({
        ...base,
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: i, function: { arguments: piece } }] },
            finish_reason: null,
          },
        ],
      });
    }
  });
  chunks.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: finish }] });
  chunks.push({ ...base, choices: [], usage });
  return { headers: SSE, body: openAiSse(chunks) };
}

/** A handler that answers each request with the next step of the script, in `protocol`. */
export function scripted(protocol: ScriptProtocol, steps: ScriptStep[]): Handler {
  return (request, index) => {
    const step = steps[index];
    if (!step)
      throw new Error(
        `the scripted model got call ${index + 1} but the script has ${steps.length}`,
      );
    const turn = typeof step === 'function' ? step(request) : step;
    if (turn.reply) return turn.reply;
    const stream = request.body.stream === true;
    return protocol === 'anthropic' ? anthropicReply(turn, stream) : openAiReply(turn, stream);
  };
}
