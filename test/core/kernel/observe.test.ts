import { trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { enableTracing } from '../../../core/index.ts';
import type { OpObservation } from '../../../core/kernel/observe.ts';
import { createTestHousehold, type TestHousehold } from '../../helpers/testCore.ts';

describe('watching op calls', () => {
  let h: TestHousehold;
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  beforeAll(async () => {
    trace.setGlobalTracerProvider(provider);
    await enableTracing();
  });
  afterAll(async () => {
    trace.disable();
    await provider.shutdown();
  });
  beforeEach(async () => {
    h = await createTestHousehold();
    exporter.reset();
  });
  afterEach(async () => h.close());

  it('tells an observer each call’s op, surface, outcome and duration, after it ends', async () => {
    const seen: OpObservation[] = [];
    h.core.observe((o) => seen.push(o));
    await h.core.invoke('get_household', h.owner, {}, { surface: 'mcp' });
    await expect(
      h.core.invoke('get_subscription', h.owner, { id: 'sub_missing' }, { surface: 'web' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await h.core.invoke('create_tag', h.owner, { name: 'Work' }, { dryRun: true });
    expect(
      seen.map(({ op, surface, outcome, dryRun }) => ({ op, surface, outcome, dryRun })),
    ).toEqual([
      { op: 'get_household', surface: 'mcp', outcome: 'ok', dryRun: false },
      { op: 'get_subscription', surface: 'web', outcome: 'not_found', dryRun: false },
      { op: 'create_tag', surface: null, outcome: 'ok', dryRun: true },
    ]);
    expect(seen.every((o) => o.durationMs >= 0 && o.householdId === h.householdId)).toBe(true);
  });

  it('an observer that throws does not change the call’s result, and one that stopped watching hears nothing', async () => {
    const seen: string[] = [];
    h.core.observe(() => {
      throw new Error('broken observer');
    });
    const stop = h.core.observe((o) => seen.push(o.op));
    await expect(h.core.invoke('get_household', h.owner, {})).resolves.toMatchObject({
      auditId: null,
    });
    stop();
    await h.core.invoke('get_household', h.owner, {});
    expect(seen).toEqual(['get_household']);
  });

  it('records an OpenTelemetry span per call, with the error code of a failed one and no input', async () => {
    await h.core.invoke('create_tag', h.owner, { name: 'Secret name' }, { surface: 'chat' });
    await expect(
      h.core.invoke('get_subscription', h.owner, { id: 'sub_missing' }),
    ).rejects.toThrow();
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(['op create_tag', 'op get_subscription']);
    expect(spans[0]?.attributes).toMatchObject({
      'exhale.op': 'create_tag',
      'exhale.surface': 'chat',
    });
    expect(spans[1]?.attributes).toMatchObject({ 'exhale.error': 'not_found' });
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain('Secret name');
  });
});
