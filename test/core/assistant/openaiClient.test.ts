import { describe, expect, it } from 'vitest';

import { createClient } from '../../../core/assistant/client.ts';
import type { LlmError } from '../../../core/assistant/errors.ts';
import type { ModelRequest } from '../../../core/assistant/model.ts';
import { type Exchange, fixtureReplay, loadFixture } from '../../fakes/llmFixtures.ts';
import { openAiReply, openAiSse } from '../../fakes/llmScript.ts';
import { queue, startLlmServer } from '../../fakes/llmServer.ts';
import { callFake, HELLO, summary } from './replay.ts';

/** Tests replaying recorded answers run only where ../shared/fixtures/llm is (always on CI). */
const REPLAY = fixtureReplay();

const SSE = { 'content-type': 'text/event-stream' };
const chunk = (
  delta: Record<string, unknown>,
  finish: string | null = null,
  extra: Record<string, unknown> = {},
) => ({
  id: 'c',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...extra,
});
const stream = (chunks: Array<Record<string, unknown>>, done = true) => ({
  headers: SSE,
  body: openAiSse(chunks, done),
});
const TEXT = openAiReply({ text: 'Hi there' }, true);

describe('the OpenAI-compatible client', () => {
  it('posts to {base}/chat/completions with a bearer key, a system message and include_usage', async () => {
    const out = await callFake('openai', queue(TEXT));
    const req = out.server.requests[0]!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer sk-test');
    expect(req.body).toMatchObject({
      model: 'test-model',
      max_tokens: 256,
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello' },
      ],
    });
    expect(out.streamed).toBe('Hi there');
    expect(out.response?.usage).toMatchObject({ inputTokens: 100, outputTokens: 20 });
  });

  it('sends no Authorization header without a key (a local server), and adds /v1 to a bare base URL', async () => {
    const out = await callFake('openai', queue(TEXT), {
      apiKey: null,
      baseUrl: (url) => url.replace(/\/v1$/, ''),
    });
    const req = out.server.requests[0]!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBeUndefined();
  });

  it('drops stream_options when the server rejects it, and remembers that for the endpoint', async () => {
    const rejected = {
      status: 422,
      headers: { 'content-type': 'application/json' },
      body: '{"detail":[{"type":"extra_forbidden","loc":["body","stream_options"],"msg":"Extra inputs are not permitted"}]}',
    };
    const server = await startLlmServer(queue(rejected, TEXT, TEXT));
    try {
      const client = createClient(
        { provider: 'openai', model: 'mistral-like', apiKey: null, baseUrl: server.url },
        fetch,
      );
      let streamed = '';
      await client.complete(HELLO, { onText: (d) => void (streamed += d) });
      await client.complete(HELLO, { onText: () => undefined });
      expect(server.requests.map((r) => r.body.stream_options ?? null)).toEqual([
        { include_usage: true },
        null,
        null,
      ]);
      expect(streamed).toBe('Hi there');
    } finally {
      await server.close();
    }
  });

  /** The refusal as OpenAI words it, the switch it asks for, and nothing else changed. */
  const switchesTokenField = async (error: Pick<Exchange, 'status' | 'headers' | 'body'>) => {
    const out = await callFake('openai', queue(error, TEXT), { model: 'o-reasoner' });
    expect(out.requests).toBe(2);
    expect(out.server.requests[0]!.body.max_tokens).toBe(256);
    expect(out.server.requests[1]!.body.max_completion_tokens).toBe(256);
    expect(out.server.requests[1]!.body.max_tokens).toBeUndefined();
    expect(out.streamed).toBe('Hi there');
  };

  it('switches max_tokens to max_completion_tokens when the endpoint asks', async () => {
    await switchesTokenField({
      status: 400,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        error: {
          message:
            "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          type: 'invalid_request_error',
          param: 'max_tokens',
          code: 'unsupported_parameter',
        },
      }),
    });
  });

  it.runIf(REPLAY)('switches the same way on the recorded error', async () => {
    await switchesTokenField(
      loadFixture('openai', 'vercel-reasoning-model-legacy-parameter-error.json').exchanges[0]!,
    );
  });

  it('retries once after a 429 and once after a 503, honouring retry-after-ms', async () => {
    const limited = {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after-ms': '30' },
      body: '{"error":{"message":"slow","type":"rate_limit"}}',
    };
    const ok = await callFake('openai', queue(limited, TEXT));
    expect(ok.requests).toBe(2);
    expect(ok.streamed).toBe('Hi there');
    const busy = { status: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream busy' };
    const twice = await callFake('openai', queue(busy, busy, TEXT));
    expect(twice.requests).toBe(2);
    expect((twice.error as LlmError).kind).toBe('overloaded');
  });

  it('surfaces an error chunk inside a 200 stream after the text so far', async () => {
    const out = await callFake(
      'openai',
      queue(
        stream([chunk({ content: 'Half' }), { error: { code: 502, message: 'Upstream error' } }]),
      ),
    );
    expect(out.streamed).toBe('Half');
    expect(out.error).toMatchObject({ kind: 'server', options: { afterOutput: true } });
  });

  it('reads a refusal as the answer text with the refusal stop reason', async () => {
    const out = await callFake(
      'openai',
      queue(openAiReply({ refusal: true, text: 'I will not.' }, true)),
    );
    expect(out.response?.stop).toBe('refusal');
    expect(summary(out.response!)).toMatchObject({ text: 'I will not.' });
  });

  it('reads a plain JSON answer to a streaming request', async () => {
    const json = {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
        object: 'chat.completion',
        created: 1770772214,
        model: 'grok-3-mini',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: '',
              tool_calls: [
                {
                  id: 'call_46427107',
                  type: 'function',
                  function: { name: 'weather', arguments: '{"location":"San Francisco"}' },
                },
              ],
              refusal: null,
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 307, completion_tokens: 26, total_tokens: 333 },
      }),
    };
    const out = await callFake('openai', queue(json));
    expect(out.response?.stop).toBe('tool_use');
    expect(summary(out.response!)).toMatchObject({
      calls: [{ name: 'weather', arguments: { location: 'San Francisco' } }],
    });
  });

  it('accepts a stream without [DONE] when a finish reason came, and refuses one without', async () => {
    const ok = await callFake('openai', queue(stream([chunk({ content: 'ok' }, 'stop')], false)));
    expect(ok.response?.stop).toBe('end_turn');
    const cut = await callFake('openai', queue(stream([chunk({ content: 'ok' })], false)));
    expect((cut.error as LlmError).kind).toBe('incomplete');
  });

  it('sends tool calls back with JSON string arguments, tool results as tool messages, images and PDFs as data URLs', async () => {
    const request: ModelRequest = {
      ...HELLO,
      toolChoice: 'none',
      tools: [
        {
          name: 'get_totals',
          description: 'Totals.',
          parameters: { type: 'object', properties: {} },
        },
      ],
      messages: [
        {
          role: 'user',
          parts: [
            { type: 'text', text: 'Look' },
            { type: 'image', mediaType: 'image/jpeg', data: '/9j/4AAQ' },
            { type: 'pdf', data: 'JVBERi0x', name: 'bill.pdf' },
          ],
        },
        {
          role: 'assistant',
          parts: [
            { type: 'reasoning', text: 'hmm' },
            {
              type: 'tool_call',
              id: 'c1',
              name: 'get_totals',
              arguments: { group_by: 'category' },
              echo: { extra_content: { google: { thought_signature: 'sig' } } },
            },
          ],
        },
        {
          role: 'user',
          parts: [{ type: 'tool_result', callId: 'c1', content: '{"a":1}', isError: false }],
        },
      ],
    };
    const out = await callFake('openai', queue(TEXT), { request });
    const body = out.server.requests[0]!.body;
    expect(body.tool_choice).toBe('none');
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_totals',
          description: 'Totals.',
          parameters: { type: 'object', properties: {} },
        },
      },
    ]);
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
          {
            type: 'file',
            file: { filename: 'bill.pdf', file_data: 'data:application/pdf;base64,JVBERi0x' },
          },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            extra_content: { google: { thought_signature: 'sig' } },
            id: 'c1',
            type: 'function',
            function: { name: 'get_totals', arguments: '{"group_by":"category"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"a":1}' },
    ]);
  });
});

/** The provider quirk matrix of the protocol notes (§2.4, §2.5), one synthetic stream each. */
describe('assembling streamed tool calls', () => {
  const cases: Array<
    [
      string,
      Array<Record<string, unknown>>,
      Array<{ id?: unknown; name: string; arguments: unknown; invalid?: boolean }>,
      Record<string, unknown>?,
    ]
  > = [
    [
      'fragments keyed by index, split mid-token',
      [
        chunk({
          tool_calls: [
            { index: 0, id: 'a', type: 'function', function: { name: 'f', arguments: '' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"x' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '":1}' } }] }),
        chunk({}, 'tool_calls'),
      ],
      [{ id: 'a', name: 'f', arguments: { x: 1 } }],
    ],
    [
      'no index (Gemini, Mistral): by id, and a new named call after a named one',
      [
        chunk({ tool_calls: [{ id: 'a', function: { name: 'f', arguments: '{}' } }] }),
        chunk({ tool_calls: [{ function: { name: 'g', arguments: '{"y":2}' } }] }),
        chunk({}, 'stop'),
      ],
      [
        { id: 'a', name: 'f', arguments: {} },
        { id: expect.stringMatching(/^call_/), name: 'g', arguments: { y: 2 } },
      ],
    ],
    [
      'empty id and name on continuations (Qwen, LM Studio) never overwrite known ones',
      [
        chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{"q":' } }] }),
        chunk({ tool_calls: [{ index: 0, id: '', function: { name: '', arguments: '"z"}' } }] }),
        chunk({}, 'tool_calls'),
      ],
      [{ id: 'a', name: 'f', arguments: { q: 'z' } }],
    ],
    [
      'arguments sent as an object (llama.cpp, 2026-03)',
      [
        chunk({
          tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: { k: true } } }],
        }),
        chunk({}, 'tool_calls'),
      ],
      [{ id: 'a', name: 'f', arguments: { k: true } }],
    ],
    [
      'an index starting at 1 after text',
      [
        chunk({ content: 'Sure.' }),
        chunk({ tool_calls: [{ index: 1, id: 'b', function: { name: 'f', arguments: '{}' } }] }),
        chunk({}, 'tool_calls'),
      ],
      [{ id: 'b', name: 'f', arguments: {} }],
    ],
    [
      'a new id on a used index is a new call (Ollama parallel calls at index 0)',
      [
        chunk({ tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{}' } }] }),
        chunk({ tool_calls: [{ index: 0, id: 'b', function: { name: 'g', arguments: '{}' } }] }),
        chunk({}, 'tool_calls'),
      ],
      [
        { id: 'a', name: 'f', arguments: {} },
        { id: 'b', name: 'g', arguments: {} },
      ],
    ],
    [
      'finish_reason stop with a tool call is still a tool turn (Gemini)',
      [
        chunk(
          { tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{}' } }] },
          'stop',
        ),
      ],
      [{ id: 'a', name: 'f', arguments: {} }],
      { stop: 'tool_use' },
    ],
    [
      'invalid argument JSON is reported, not thrown',
      [
        chunk(
          { tool_calls: [{ index: 0, id: 'a', function: { name: 'f', arguments: '{"x":' } }] },
          'tool_calls',
        ),
      ],
      [{ id: 'a', name: 'f', arguments: {}, invalid: true }],
    ],
    [
      'usage on the finish chunk (Mistral, Moonshot) and in x_groq',
      [
        chunk(
          { tool_calls: [{ id: 'a', function: { name: 'f', arguments: '{}' } }] },
          'tool_calls',
          { x_groq: { usage: { prompt_tokens: 7, completion_tokens: 3 } } },
        ),
      ],
      [{ id: 'a', name: 'f', arguments: {} }],
      { usage: { inputTokens: 7, outputTokens: 3 } },
    ],
  ];

  it.each(cases)('%s', async (_name, chunks, calls, extra) => {
    const out = await callFake('openai', queue(stream(chunks)));
    expect(out.error).toBeUndefined();
    expect(summary(out.response!)).toMatchObject({
      calls: calls.map((c) => ({ invalid: false, ...c })),
      ...(extra ?? {}),
    });
  });

  it('overwrites usage with the last report instead of adding', async () => {
    const chunks = [
      chunk({ content: 'a' }, null, { usage: { prompt_tokens: 5, completion_tokens: 1 } }),
      chunk({ content: 'b' }, 'stop', { usage: { prompt_tokens: 5, completion_tokens: 2 } }),
    ];
    const out = await callFake('openai', queue(stream(chunks)));
    expect(out.response?.usage).toMatchObject({ inputTokens: 5, outputTokens: 2 });
  });
});
