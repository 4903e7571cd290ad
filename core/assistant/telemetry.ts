import type { Attributes, Context } from '@opentelemetry/api';

import { NO_SPAN, type SpanLike, tracingApi } from '../kernel/tracing.ts';
import type { ModelResponse } from './model.ts';

/**
 * OpenTelemetry spans in the GenAI semantic conventions, through the API only: while tracing is
 * off (`core/kernel/tracing.ts`) the API is not even loaded and every span is a no-op, and with
 * no SDK registered they cost nothing. One `invoke_agent` span per question, a `chat` span per
 * model call and an `execute_tool` span per tool call. Counts and names only, never the words.
 */
export interface QuestionSpan {
  span: SpanLike;
  /** The question's span as the parent of its children; null while tracing is off. */
  ctx: Context | null;
}

export function startQuestion(provider: string, model: string, attrs: Attributes): QuestionSpan {
  const otel = tracingApi();
  if (!otel) return { span: NO_SPAN, ctx: null };
  const span = otel.trace.getTracer('exhale.assistant').startSpan('invoke_agent exhale', {
    kind: otel.SpanKind.INTERNAL,
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'exhale',
      'gen_ai.provider.name': provider,
      'gen_ai.request.model': model,
      ...attrs,
    },
  });
  return { span, ctx: otel.trace.setSpan(otel.context.active(), span) };
}

export function startChat(
  parent: QuestionSpan,
  provider: string,
  model: string,
  maxTokens: number,
): SpanLike {
  const otel = tracingApi();
  if (!otel || !parent.ctx) return NO_SPAN;
  return otel.trace.getTracer('exhale.assistant').startSpan(
    `chat ${model}`,
    {
      kind: otel.SpanKind.CLIENT,
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

export function endChat(span: SpanLike, response: ModelResponse): void {
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

export function startTool(parent: QuestionSpan, name: string, callId: string): SpanLike {
  const otel = tracingApi();
  if (!otel || !parent.ctx) return NO_SPAN;
  return otel.trace.getTracer('exhale.assistant').startSpan(
    `execute_tool ${name}`,
    {
      kind: otel.SpanKind.INTERNAL,
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
export function failSpan(span: SpanLike, errorType: string): void {
  const otel = tracingApi();
  span.setAttribute('error.type', errorType);
  if (otel) span.setStatus({ code: otel.SpanStatusCode.ERROR });
  span.end();
}
