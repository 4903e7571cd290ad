import { describe, expect, it } from 'vitest';

import type { LlmError } from '../../../core/assistant/errors.ts';
import type { ModelRequest, Part } from '../../../core/assistant/model.ts';
import { fixtureReplay, loadFixture } from '../../fakes/llmFixtures.ts';
import { anthropicReply, anthropicSse } from '../../fakes/llmScript.ts';
import { queue, replay } from '../../fakes/llmServer.ts';
import { callFake, HELLO } from './replay.ts';

/** Tests replaying recorded streams run only where ../shared/fixtures/llm is (always on CI). */
const REPLAY = fixtureReplay();

/** A short streamed answer, written out as the Messages API sends it (ping included). */
const TEXT_STREAM = {
  headers: { 'content-type': 'text/event-stream; charset=utf-8' },
  body: [
    'event: message_start',
    'data: {"type":"message_start","message":{"id":"msg_01XFDUDYJgAACzvnptvVoYEL","type":"message","role":"assistant","content":[],"model":"claude-sonnet-4-5","stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":11,"output_tokens":1}}}',
    '',
    'event: content_block_start',
    'data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}',
    '',
    'event: ping',
    'data: {"type": "ping"}',
    '',
    'event: content_block_delta',
    'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}',
    '',
    'event: content_block_delta',
    'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" there"}}',
    '',
    'event: content_block_delta',
    'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"!"}}',
    '',
    'event: content_block_stop',
    'data: {"type":"content_block_stop","index":0}',
    '',
    'event: message_delta',
    'data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":6}}',
    '',
    'event: message_stop',
    'data: {"type":"message_stop"}',
    '',
    '',
  ].join('\n'),
};
/** The bytes before the first text delta. */
const BEFORE_TEXT = Buffer.byteLength(
  TEXT_STREAM.body.slice(0, TEXT_STREAM.body.indexOf('event: content_block_delta')),
);
const overloaded = { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } };

describe('the Anthropic client', () => {
  it('posts to {base}/messages with the API key and version, and no Authorization header', async () => {
    const out = await callFake('anthropic', queue(TEXT_STREAM));
    const req = out.server.requests[0]!;
    expect(req.path).toBe('/v1/messages');
    expect(req.headers['x-api-key']).toBe('sk-test');
    expect(req.headers['anthropic-version']).toBe('2023-06-01');
    expect(req.headers.authorization).toBeUndefined();
    expect(req.body).toMatchObject({
      model: 'test-model',
      max_tokens: 256,
      system: 'Be brief.',
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }],
    });
  });

  it('sends no key header at all when no key is set, and adds /v1 to a bare base URL', async () => {
    const out = await callFake('anthropic', queue(TEXT_STREAM), {
      apiKey: null,
      baseUrl: (url) => url.replace(/\/v1$/, '/'),
    });
    const req = out.server.requests[0]!;
    expect(req.path).toBe('/v1/messages');
    expect(req.headers['x-api-key']).toBeUndefined();
    expect(req.headers.authorization).toBeUndefined();
    expect(out.response?.parts).toEqual([{ type: 'text', text: 'Hello there!' }]);
  });

  it('retries once after a 429, waiting as retry-after asks', async () => {
    const started = Date.now();
    const out = await callFake(
      'anthropic',
      queue(
        {
          status: 429,
          headers: { 'retry-after': '1', 'content-type': 'application/json' },
          body: '{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}',
        },
        TEXT_STREAM,
      ),
    );
    expect(out.requests).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(out.streamed).toBe('Hello there!');
  });

  it.runIf(REPLAY)('succeeds on the recorded 429 followed by the recorded stream', async () => {
    const recorded = loadFixture(
      'anthropic',
      'anthropic-sdk-python-TestAsyncStream-a8b7dbb8-2321-4624-abdb-7ba2136b5c38.json',
    ).exchanges;
    const out = await callFake('anthropic', replay([recorded[0]!, recorded[2]!], 5));
    expect(out.requests).toBe(2);
    expect(out.response?.parts).toEqual([{ type: 'text', text: '[12345,67890]' }]);
  });

  it('does not retry when the server says x-should-retry: false', async () => {
    const out = await callFake(
      'anthropic',
      queue({
        status: 529,
        headers: { 'x-should-retry': 'false', 'content-type': 'application/json' },
        body: JSON.stringify(overloaded),
      }),
    );
    expect(out.requests).toBe(1);
    expect((out.error as LlmError).kind).toBe('overloaded');
  });

  it('retries a stream whose first event is an overloaded error, as a 529', async () => {
    const out = await callFake(
      'anthropic',
      queue(
        { headers: { 'content-type': 'text/event-stream' }, body: anthropicSse([overloaded]) },
        TEXT_STREAM,
      ),
    );
    expect(out.requests).toBe(2);
    expect(out.response?.stop).toBe('end_turn');
  });

  it('surfaces an overloaded error in the middle of a stream after the text so far, without retrying', async () => {
    const events = anthropicSse([
      {
        type: 'message_start',
        message: { id: 'm', model: 'x', usage: { input_tokens: 5, output_tokens: 1 } },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Partial ' } },
      overloaded,
    ]);
    const out = await callFake(
      'anthropic',
      queue({ headers: { 'content-type': 'text/event-stream' }, body: events }, TEXT_STREAM),
    );
    expect(out.requests).toBe(1);
    expect(out.streamed).toBe('Partial ');
    expect(out.error).toMatchObject({ kind: 'overloaded', options: { afterOutput: true } });
  });

  it('reads a plain JSON answer to a streaming request and streams its text at once', async () => {
    const json = {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: 'msg_01VdEjxAP5ahtHKrrRdNBteQ',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: "Hello! I'm doing well, thanks for asking." }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 12, output_tokens: 13 },
      }),
    };
    const out = await callFake('anthropic', queue(json));
    expect(out.response?.stop).toBe('end_turn');
    expect(out.streamed).toMatch(/^Hello! I'm doing well/);
  });

  it('asks for a whole answer without a sink', async () => {
    const out = await callFake(
      'anthropic',
      (req) => anthropicReply({ text: 'whole' }, req.body.stream === true),
      { stream: false },
    );
    expect(out.server.requests[0]!.body.stream).toBeUndefined();
    expect(out.response?.parts).toEqual([{ type: 'text', text: 'whole' }]);
  });

  it('retries once when the connection drops before any text arrived', async () => {
    const out = await callFake(
      'anthropic',
      queue({ ...TEXT_STREAM, cutAfter: BEFORE_TEXT }, TEXT_STREAM),
    );
    expect(out.requests).toBe(2);
    expect(out.streamed).toBe('Hello there!');
  });

  it('reports a stream cut after some text as an error, without retrying', async () => {
    const cut = Buffer.byteLength(
      TEXT_STREAM.body.slice(0, TEXT_STREAM.body.indexOf('"Hello"') + 40),
    );
    const out = await callFake('anthropic', queue({ ...TEXT_STREAM, cutAfter: cut }, TEXT_STREAM));
    expect(out.requests).toBe(1);
    expect(out.streamed).toBe('Hello');
    expect(['incomplete', 'network']).toContain((out.error as LlmError).kind);
  });

  it('sends thinking blocks back exactly, tool results first, images and PDFs as base64 blocks', async () => {
    const thinking: Part = {
      type: 'reasoning',
      text: 'Let me think',
      signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h',
    };
    const redacted: Part = {
      type: 'reasoning',
      text: '',
      redacted: 'EmwKAhgBEgy3va3pzix/LafPsn4a',
    };
    const request: ModelRequest = {
      ...HELLO,
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
            { type: 'image', mediaType: 'image/png', data: 'iVBORw0K' },
            { type: 'pdf', data: 'JVBERi0x', name: 'bill.pdf' },
          ],
        },
        {
          role: 'assistant',
          parts: [
            thinking,
            redacted,
            { type: 'text', text: '' },
            { type: 'tool_call', id: 'toolu_1', name: 'get_totals', arguments: {} },
          ],
        },
        {
          role: 'user',
          parts: [
            { type: 'text', text: 'and?' },
            {
              type: 'tool_result',
              callId: 'toolu_1',
              content: '{"monthly":"9.99"}',
              isError: false,
            },
          ],
        },
      ],
    };
    const out = await callFake('anthropic', queue(TEXT_STREAM), { request });
    const body = out.server.requests[0]!.body;
    expect(body.tools).toEqual([
      {
        name: 'get_totals',
        description: 'Totals.',
        input_schema: { type: 'object', properties: {} },
      },
    ]);
    expect(body.tool_choice).toEqual({ type: 'auto' });
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0K' } },
          {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0x' },
            title: 'bill.pdf',
          },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Let me think', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3h' },
          { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix/LafPsn4a' },
          { type: 'tool_use', id: 'toolu_1', name: 'get_totals', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '{"monthly":"9.99"}' },
          { type: 'text', text: 'and?' },
        ],
      },
    ]);
  });

  it.runIf(REPLAY)(
    'keeps the recorded signatures verbatim when a streamed answer is sent back',
    async () => {
      const fixture = loadFixture(
        'anthropic',
        'pydantic-ai-test_anthropic_model_thinking_part_stream.yaml',
      ).exchanges[0]!;
      const first = await callFake('anthropic', queue(fixture));
      const parts = first.response?.parts ?? [];
      const signed = parts.find((p) => p.type === 'reasoning');
      expect(signed && 'signature' in signed ? signed.signature : '').toMatch(/^E/);
      const followUp: ModelRequest = {
        ...HELLO,
        messages: [
          ...HELLO.messages,
          { role: 'assistant', parts },
          { role: 'user', parts: [{ type: 'text', text: 'more' }] },
        ],
      };
      const second = await callFake('anthropic', queue(TEXT_STREAM), { request: followUp });
      const sent = (
        second.server.requests[0]!.body.messages as Array<{
          content: Array<Record<string, unknown>>;
        }>
      )[1]!.content[0]!;
      expect(sent).toEqual({
        type: 'thinking',
        thinking: signed?.text,
        signature: signed && 'signature' in signed ? signed.signature : undefined,
      });
    },
  );
});
