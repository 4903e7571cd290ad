import { describe, expect, it } from 'vitest';

import { isLlmError } from '../../../core/assistant/errors.ts';
import {
  fixtureNames,
  fixtureReplay,
  FIXTURES_SKIPPED,
  loadFixture,
  type Protocol,
} from '../../fakes/llmFixtures.ts';
import { replay } from '../../fakes/llmServer.ts';
import { callFake, summary } from './replay.ts';

/**
 * Every recorded stream in ../shared/fixtures/llm/, replayed by a loopback server whole and split
 * at random points (mid-line, mid-UTF-8), must give the same answer; the ones below must give the
 * answer the protocol notes say they carry. Without the folder (a fresh clone) the replay is
 * skipped with a line saying so; on CI a missing folder fails this file.
 */
const REPLAY = fixtureReplay();
if (!REPLAY) console.log(FIXTURES_SKIPPED);

const SEEDS = [11, 29, 47];

/** The API key-less fixture: a recorded error body, replayed by the legacy-parameter test instead. */
const NOT_A_REPLY = new Set(['vercel-reasoning-model-legacy-parameter-error.json']);

const GOLDEN: Record<Protocol, Record<string, Record<string, unknown>>> = {
  anthropic: {
    'anthropic-sdk-python-basic_response.txt': {
      stop: 'end_turn',
      text: 'Hello there!',
      usage: { inputTokens: 11, outputTokens: 6 },
    },
    'anthropic-sdk-typescript-tool_use_response.txt': {
      stop: 'tool_use',
      calls: [
        {
          id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn',
          name: 'get_weather',
          arguments: { location: 'Paris' },
          invalid: false,
        },
      ],
      usage: { inputTokens: 377, outputTokens: 65 },
    },
    'anthropic-sdk-python-incomplete_partial_json_response.txt': {
      stop: 'max_tokens',
      calls: [{ name: 'make_file', arguments: {}, invalid: true }],
    },
    'anthropic-sdk-python-refusal_response.txt': { stop: 'refusal', text: '', calls: [] },
    'anthropic-sdk-python-compaction_response.txt': { stop: 'end_turn', text: 'Hello there!' },
    'anthropic-sdk-python-fallback_response.txt': { stop: 'end_turn', text: 'Hello there!' },
    'anthropic-sdk-typescript-fable-fallback-stream-a-refusal.sse': {
      stop: 'refusal',
      rawStop: 'refusal',
      reasoning: [{ text: 212, signature: expect.stringMatching(/.{60,}/), redacted: null }],
    },
    'anthropic-sdk-typescript-fable-fallback-stream-a-toolrefusal.sse': {
      stop: 'refusal',
      calls: [],
    },
    'pydantic-ai-test_anthropic_model_thinking_part_redacted_stream.yaml': {
      reasoning: [
        { text: 0, signature: null, redacted: expect.stringMatching(/^EqkECkYIBxgCKkA8/) },
        { text: 0, signature: null, redacted: expect.stringMatching(/^EtgBCkYIBxgCKkDQ/) },
      ],
    },
    'pydantic-ai-test_anthropic_model_thinking_part_redacted.yaml': {
      reasoning: [{ text: 0, signature: null, redacted: expect.any(String) }],
    },
    'vercel-anthropic-message-delta-input-tokens.chunks.txt': {
      text: 'pong',
      usage: { inputTokens: 61, outputTokens: 2 },
    },
    'vercel-duplicate-message-start.chunks.txt': {
      text: 'Hello, World!',
      usage: { inputTokens: 17, outputTokens: 227 },
    },
    'vercel-spliced-message-start.chunks.txt': {
      stop: 'tool_use',
      calls: [
        {
          id: 'toolu_second',
          name: 'test-tool',
          arguments: { value: 'Sparkle Day' },
          invalid: false,
        },
      ],
      reasoning: [{ text: 21, signature: 'sig-second', redacted: null }],
    },
    'vercel-anthropic-tool-no-args.chunks.txt': {
      stop: 'tool_use',
      calls: [{ name: 'updateIssueList', arguments: {}, invalid: false }],
    },
    'vercel-anthropic-refusal.chunks.txt': {
      stop: 'refusal',
      text: '',
      usage: { inputTokens: 18, outputTokens: 5 },
    },
    'vercel-anthropic-refusal.json': { stop: 'refusal', text: '' },
    'vercel-anthropic-clear-thinking.1.chunks.txt': {
      text: '925 ÷ 5 = 185',
      reasoning: [{ text: 75, signature: expect.stringMatching(/.{300,}/), redacted: null }],
    },
  },
  openai: {
    'pydantic-ai-test_run_stream_sync_streams_real_model.yaml': {
      stop: 'tool_use',
      calls: [
        {
          id: 'call_ZR5UUuTt3pf61kjwAJIYdVMj',
          name: 'get_capital',
          arguments: { country: 'UK' },
          invalid: false,
        },
      ],
      usage: { inputTokens: 53, outputTokens: 15 },
    },
    'pydantic-ai-test_compatible_api_with_tool_calls_without_id.yaml': {
      stop: 'tool_use',
      calls: [{ id: expect.stringMatching(/^call_/), name: 'get_current_time', arguments: {} }],
    },
    'pydantic-ai-test_openai_moderation_stream.yaml': {
      stop: 'end_turn',
      text: 'Paris.',
      usage: { inputTokens: 13, outputTokens: 11 },
    },
    'pydantic-ai-test_openrouter_streaming_reasoning.yaml': {
      text: '2 + 2 = 4',
      reasoning: [{ text: 51, signature: null, redacted: null }],
    },
    'vercel-alibaba-tool-call.chunks.txt': {
      calls: [
        {
          id: 'call_eee11723464a4b9eb8cee71d',
          name: 'weather',
          arguments: { location: 'San Francisco' },
          invalid: false,
        },
      ],
    },
    'vercel-mistral-tool-call.chunks.txt': {
      stop: 'tool_use',
      calls: [{ id: 'gSIMJiOkT', name: 'weather', arguments: { location: 'San Francisco' } }],
      usage: { inputTokens: 124, outputTokens: 22 },
    },
    'vercel-mistral-incremental-tool-call.chunks.txt': {
      calls: [{ name: 'webSearchTool', arguments: { query: 'current Berlin weather' } }],
    },
    'vercel-mistral-reasoning.chunks.txt': {
      text: '2 + 2 = 4',
      reasoning: [{ text: 60, signature: null, redacted: null }],
    },
    'vercel-moonshotai-stream.chunks.txt': {
      text: 'Hello!',
      usage: { inputTokens: 9, outputTokens: 12 },
    },
    'vercel-groq-tool-call.chunks.txt': {
      calls: [{ id: 'tk85n1k4m', name: 'weather', arguments: {} }],
      usage: { inputTokens: 210, outputTokens: 15 },
    },
    'vercel-openai-compatible-anthropic-fallback-tool-call.sse': {
      text: 'Reading it.',
      calls: [
        { id: 'toolu_sanitized', name: 'read_file', arguments: { path: 'a.txt' }, invalid: false },
      ],
    },
    'vercel-openai-compatible-xai-tool-call.chunks.txt': {
      calls: [{ name: 'weather', arguments: { location: 'San Francisco' } }],
      usage: { inputTokens: 307, outputTokens: 26 },
    },
    'vercel-openai-text.chunks.txt': {
      stop: 'end_turn',
      usage: { inputTokens: 16, outputTokens: 300 },
    },
    'vercel-deepseek-text.chunks.txt': { stop: 'max_tokens', rawStop: 'length' },
    'vercel-deepseek-tool-call.chunks.txt': {
      calls: [{ name: 'weather', arguments: { location: 'San Francisco' } }],
    },
  },
};

const GOLDEN_ERRORS: Record<
  Protocol,
  Record<string, { kind: string; requests: number; detail?: RegExp }>
> = {
  anthropic: {
    // Recorded: two 429s then a stream. One retry only, so the second 429 is the answer.
    'anthropic-sdk-python-TestAsyncStream-a8b7dbb8-2321-4624-abdb-7ba2136b5c38.json': {
      kind: 'rate_limited',
      requests: 2,
    },
  },
  openai: {
    'pydantic-ai-test_openrouter_stream_error.yaml': {
      kind: 'bad_request',
      requests: 1,
      detail: /Token limit reached/,
    },
    'pydantic-ai-test_tool_use_failed_error_streaming.yaml': {
      kind: 'bad_request',
      requests: 1,
      detail: /Tool call validation failed/,
    },
    'pydantic-ai-test_openrouter_errors_raised.yaml': { kind: 'rate_limited', requests: 2 },
  },
};

for (const protocol of ['anthropic', 'openai'] as const) {
  describe.runIf(REPLAY)(`${protocol} client replaying every recorded fixture`, () => {
    const names = REPLAY ? fixtureNames(protocol).filter((n) => !NOT_A_REPLY.has(n)) : [];

    it('has fixtures to replay and an expectation for the notable ones', () => {
      expect(names.length).toBeGreaterThan(15);
      for (const name of [
        ...Object.keys(GOLDEN[protocol]),
        ...Object.keys(GOLDEN_ERRORS[protocol]),
      ])
        expect(names).toContain(name);
    });

    it.each(names)(
      '%s: the same answer whole and split at random points, text streamed as it came',
      async (name) => {
        const fixture = loadFixture(protocol, name);
        const whole = await callFake(protocol, replay(fixture.exchanges));
        const expectedError = GOLDEN_ERRORS[protocol][name];
        if (expectedError) {
          expect(isLlmError(whole.error) ? whole.error.kind : whole.error).toBe(expectedError.kind);
          expect(whole.requests).toBe(expectedError.requests);
          if (expectedError.detail && isLlmError(whole.error))
            expect(whole.error.detail).toMatch(expectedError.detail);
        } else {
          expect(whole.error).toBeUndefined();
          const response = whole.response;
          if (!response) throw new Error('no response');
          const text = response.parts.map((p) => (p.type === 'text' ? p.text : '')).join('');
          expect(whole.streamed).toBe(text);
          const golden = GOLDEN[protocol][name];
          if (golden) expect(summary(response)).toMatchObject(golden);
        }
        for (const seed of SEEDS) {
          const split = await callFake(protocol, replay(fixture.exchanges, seed));
          expect(split.streamed).toBe(whole.streamed);
          expect(split.error?.message).toBe(whole.error?.message);
          if (whole.response && split.response)
            expect(summary(split.response)).toEqual(summary(whole.response));
        }
      },
    );
  });
}
