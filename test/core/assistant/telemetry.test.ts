import {
  type Attributes,
  type AttributeValue,
  type Context,
  type Span,
  type SpanContext,
  type SpanOptions,
  type SpanStatus,
  trace,
  type Tracer,
  type TracerProvider,
} from '@opentelemetry/api';
import { afterAll, describe, expect, it } from 'vitest';

import { enableTracing } from '../../../core/index.ts';
import { world } from './helpers.ts';

/** A recording tracer over the API only (no SDK): enough to see the spans, their parents and attributes. */
class RecordedSpan implements Span {
  attributes: Attributes = {};
  status: SpanStatus = { code: 0 };
  ended = false;
  private readonly context: SpanContext;

  constructor(
    readonly name: string,
    readonly parent: RecordedSpan | undefined,
    options: SpanOptions,
    id: number,
  ) {
    this.attributes = { ...(options.attributes ?? {}) };
    this.context = {
      traceId: '0'.repeat(31) + '1',
      spanId: id.toString(16).padStart(16, '0'),
      traceFlags: 1,
    };
  }
  spanContext(): SpanContext {
    return this.context;
  }
  setAttribute(key: string, value: AttributeValue): this {
    this.attributes[key] = value;
    return this;
  }
  setAttributes(attributes: Attributes): this {
    Object.assign(this.attributes, attributes);
    return this;
  }
  addEvent(): this {
    return this;
  }
  addLink(): this {
    return this;
  }
  addLinks(): this {
    return this;
  }
  setStatus(status: SpanStatus): this {
    this.status = status;
    return this;
  }
  updateName(): this {
    return this;
  }
  end(): void {
    this.ended = true;
  }
  isRecording(): boolean {
    return !this.ended;
  }
  recordException(): void {}
}

const spans: RecordedSpan[] = [];
const tracer: Tracer = {
  startSpan(name: string, options: SpanOptions = {}, ctx?: Context): Span {
    const parent = ctx ? trace.getSpan(ctx) : undefined;
    const span = new RecordedSpan(
      name,
      parent instanceof RecordedSpan ? parent : undefined,
      options,
      spans.length + 1,
    );
    spans.push(span);
    return span;
  },
  startActiveSpan(): never {
    throw new Error('not used');
  },
};
const provider: TracerProvider = { getTracer: () => tracer };
trace.setGlobalTracerProvider(provider);
// Tracing on, as the trace export turns it on in a process (the API is not loaded before).
await enableTracing();
afterAll(() => trace.disable());

describe("the assistant's OpenTelemetry spans", () => {
  it('follow the GenAI conventions: a question, its model calls and tool calls, counts but no words', async () => {
    const w = await world('anthropic', [
      {
        text: 'Checking.',
        calls: [{ name: 'get_totals', args: {} }],
        usage: { input: 900, output: 40 },
      },
      { text: 'You pay 56.98 EUR a month.', usage: { input: 1000, output: 20 } },
    ]);
    try {
      await w.assistant.ask(w.member, { text: 'how much per month, secretly?' });
    } finally {
      await w.close();
    }
    const question = spans.find((s) => s.name === 'invoke_agent exhale');
    expect(question?.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'test-model',
      'gen_ai.usage.input_tokens': 1900,
      'gen_ai.usage.output_tokens': 60,
      'exhale.calls': 2,
      'exhale.outcome': 'answered',
    });
    const chats = spans.filter((s) => s.name === 'chat test-model');
    expect(chats).toHaveLength(2);
    expect(chats.every((s) => s.parent === question && s.ended)).toBe(true);
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.max_tokens': 8192,
      'gen_ai.response.finish_reasons': ['tool_use'],
      'gen_ai.usage.input_tokens': 900,
      'gen_ai.response.id': 'msg_fake',
    });
    const tool = spans.find((s) => s.name === 'execute_tool get_totals');
    expect(tool?.parent).toBe(question);
    expect(tool?.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'get_totals',
      'gen_ai.tool.type': 'function',
    });
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toMatch(/secretly|56\.98/);
  });
});
