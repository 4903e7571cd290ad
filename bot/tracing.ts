import { enableTracing } from '../core/index.ts';

/** A running trace export; `stop` flushes what is buffered and ends it. */
export interface Tracing {
  readonly endpoint: string;
  stop(): Promise<void>;
}

/**
 * Exports the kernel's op spans and the assistant's GenAI spans over OTLP/HTTP when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set, with the
 * standard `OTEL_*` variables (headers, service name) read by the exporter itself. Off by default:
 * neither the SDK nor the API is loaded (the kernel's spans are no-ops), and nothing leaves the
 * machine. Spans carry names, counts and codes,
 * never a person's words, amounts or keys.
 */
export async function startTracing(env: NodeJS.ProcessEnv = process.env): Promise<Tracing | null> {
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  // The traces endpoint is used as given; the base endpoint gets the signal's path, as the spec says.
  const endpoint =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || (base ? `${base.replace(/\/+$/, '')}/v1/traces` : '');
  if (!endpoint || env.OTEL_SDK_DISABLED === 'true') return null;
  const [
    { trace },
    { BasicTracerProvider, BatchSpanProcessor },
    { OTLPTraceExporter },
    { resourceFromAttributes },
  ] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME || 'exhale' }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: endpoint }))],
  });
  trace.setGlobalTracerProvider(provider);
  await enableTracing();
  return {
    endpoint,
    async stop() {
      // A collector that is down loses the last spans; it never fails the stop.
      await provider.shutdown().catch(() => undefined);
      trace.disable();
    },
  };
}
