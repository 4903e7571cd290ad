import {
  type Attributes,
  type Context,
  context,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

import type { ModelResponse } from './model.ts';

/**
 * OpenTelemetry spans in the GenAI semantic conventions, through the API only: with no SDK
 * registered they cost nothing. One `invoke_agent` span per question, a `chat` span per model
 * call and an `execute_tool` span per tool call. Counts and names only, never the words.
 */
const tracer = () => trace.getTracer('exhale.assistant');

export interface QuestionSpan {
  span: Span;
  ctx: Context;
}

export function startQuestion(provider: string, model: string, attrs: Attributes): QuestionSpan {
  const span = tracer().startSpan('invoke_agent exhale', {
    kind: SpanKind.INTERNAL,
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'exhale',
      'gen_ai.provider.name': provider,
      'gen_ai.request.model': model,
      ...attrs,
    },
  });
  return { span, ctx: trace.setSpan(context.active(), span) };
}

export function startChat(
  parent: QuestionSpan,
  provider: string,
  model: string,
  maxTokens: number,
): Span {
  return tracer().startSpan(
    `chat ${model}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'chat',
        'gen_ai.provider.name': provider,
        'gen_ai.request.model': model,
        'gen_ai.request.max_tokens': maxTokens,
      },
    },
    parent.ctx,
  );
}

export function endChat(span: Span, response: ModelResponse): void {
  const attributes: Attributes = {
    'gen_ai.usage.input_tokens': response.usage.inputTokens,
    'gen_ai.usage.output_tokens': response.usage.outputTokens,
    'gen_ai.response.finish_reasons': [response.rawStop ?? response.stop],
  };
  if (response.id) attributes['gen_ai.response.id'] = response.id;
  if (response.model) attributes['gen_ai.response.model'] = response.model;
  span.setAttributes(attributes);
  span.end();
}

export function startTool(parent: QuestionSpan, name: string, callId: string): Span {
  return tracer().startSpan(
    `execute_tool ${name}`,
    {
      kind: SpanKind.INTERNAL,
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': name,
        'gen_ai.tool.call.id': callId,
        'gen_ai.tool.type': 'function',
      },
    },
    parent.ctx,
  );
}

/** Ends a span as failed, naming the error's kind (never its message: it may echo the request). */
export function failSpan(span: Span, errorType: string): void {
  span.setAttribute('error.type', errorType);
  span.setStatus({ code: SpanStatusCode.ERROR });
  span.end();
}
