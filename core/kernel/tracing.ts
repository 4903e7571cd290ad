import type * as OTel from '@opentelemetry/api';

/**
 * The OpenTelemetry API, loaded only once tracing is turned on (`enableTracing`, called by the
 * process's trace export setup when `OTEL_EXPORTER_OTLP_ENDPOINT` is set, and by tests that
 * register a provider). Until then nothing of it is imported (it is about a hundred modules, a
 * noticeable part of a start) and every span is the no-op below, as the API's own would be
 * without an SDK.
 */
let api: typeof OTel | null = null;

/** Loads the API so spans reach the global tracer provider; idempotent. */
export async function enableTracing(): Promise<void> {
  api ??= await import('@opentelemetry/api');
}

/** The loaded API, or null while tracing is off. */
export function tracingApi(): typeof OTel | null {
  return api;
}

/** The part of a span Exhale uses: a real `Span` has it, and so does the no-op. */
export interface SpanLike {
  setAttribute(key: string, value: OTel.AttributeValue): unknown;
  setAttributes(attributes: OTel.Attributes): unknown;
  setStatus(status: OTel.SpanStatus): unknown;
  end(): void;
}

/** The span of a call while tracing is off: records nothing. */
export const NO_SPAN: SpanLike = {
  setAttribute: () => NO_SPAN,
  setAttributes: () => NO_SPAN,
  setStatus: () => NO_SPAN,
  end: () => undefined,
};
