import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';

import { enableTracing } from '../../../core/index.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';

/**
 * The kernel loads the OpenTelemetry API only when tracing is turned on (the trace export does it
 * when OTEL_EXPORTER_OTLP_ENDPOINT is set): a start without tracing never pays for it.
 */
describe('op spans only once tracing is on', () => {
  let h: TestHousehold;
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  afterAll(async () => {
    trace.disable();
    await provider.shutdown();
  });
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());

  it('makes no span while tracing is off, even with a provider registered, and one per call after enableTracing', async () => {
    await h.core.invoke('get_household', h.owner, {});
    expect(exporter.getFinishedSpans()).toEqual([]);
    await enableTracing();
    await enableTracing(); // idempotent
    await h.core.invoke('get_household', h.owner, {});
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['op get_household']);
  });
});
