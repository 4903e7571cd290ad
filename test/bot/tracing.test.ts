import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { loadConfig } from '../../bot/config.ts';
import { startExhale } from '../../bot/main.ts';
import { createAssistant, newcomerActor } from '../../core/index.ts';
import type { Actor } from '../../core/kernel/actor.ts';
import { scripted } from '../fakes/llmScript.ts';
import { startLlmServer } from '../fakes/llmServer.ts';

/** A stand-in OTLP collector on loopback: records each request's path and body. */
async function collector() {
  const received: Array<{ path: string; body: Buffer }> = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: Buffer.concat(chunks) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('trace export over OTLP', () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('with OTEL_EXPORTER_OTLP_ENDPOINT set, op spans reach the collector by the time Exhale has stopped, without a person’s words', async () => {
    const otlp = await collector();
    dir = mkdtempSync(path.join(tmpdir(), 'exhale-otlp-'));
    const exhale = await startExhale(
      loadConfig({ EXHALE_DATA_DIR: dir, EXHALE_PORT: '0', EXHALE_ECB_RATES: 'off' }),
      { quiet: true, env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url } },
    );
    await exhale.runtime.core.invoke(
      'create_household',
      newcomerActor('cli', 'en'),
      {
        name: 'Casa Zubiri',
        currency: 'EUR',
        time_zone: 'Europe/Madrid',
        language: 'en',
        owner_name: 'Ana',
      },
      { surface: 'cli' },
    );
    await exhale.stop();
    await otlp.close();
    const traces = otlp.received.filter((r) => r.path === '/v1/traces');
    expect(traces.length).toBeGreaterThan(0);
    const all = Buffer.concat(traces.map((t) => t.body));
    expect(all.includes('op create_household')).toBe(true);
    expect(all.includes('Casa Zubiri')).toBe(false);
  });

  it('exports the assistant’s GenAI spans (the question, each model call, each tool) with counts and names, never the words', async () => {
    const otlp = await collector();
    const llm = await startLlmServer(
      scripted('openai', [
        { text: 'Checking. ', calls: [{ name: 'list_subscriptions', args: {} }] },
        { text: 'You pay nothing yet: add your first subscription.' },
      ]),
    );
    dir = mkdtempSync(path.join(tmpdir(), 'exhale-otlp-'));
    const exhale = await startExhale(
      loadConfig({ EXHALE_DATA_DIR: dir, EXHALE_PORT: '0', EXHALE_ECB_RATES: 'off' }),
      { quiet: true, env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url } },
    );
    try {
      const core = exhale.runtime.core;
      const created = await core.invoke('create_household', newcomerActor('cli', 'en'), {
        name: 'Casa Zubiri',
        currency: 'EUR',
        time_zone: 'Europe/Madrid',
        language: 'en',
        owner_name: 'Ana',
      });
      const owner: Actor = {
        kind: 'member',
        householdId: created.output.household.id,
        memberId: created.output.member.id,
        role: 'owner',
        scope: 'trusted',
        channel: 'terminal',
        locale: 'en',
      };
      const assistant = createAssistant({
        core,
        config: { provider: 'openai', model: 'gpt-4o-mini', apiKey: 'sk-test', baseUrl: llm.url },
        log: () => undefined,
      });
      const reply = await assistant.ask(owner, { text: 'What does my secret plan cost?' });
      expect(reply.text).toContain('add your first subscription');
    } finally {
      await exhale.stop();
      await otlp.close();
      await llm.close();
    }
    const all = Buffer.concat(
      otlp.received.filter((r) => r.path === '/v1/traces').map((t) => t.body),
    );
    for (const name of [
      'invoke_agent exhale',
      'chat gpt-4o-mini',
      'execute_tool list_subscriptions',
    ])
      expect(all.includes(name), name).toBe(true);
    expect(all.includes('gen_ai.usage.input_tokens')).toBe(true);
    for (const words of ['secret plan', 'add your first subscription', 'sk-test', 'Casa Zubiri'])
      expect(all.includes(words), words).toBe(false);
  });

  it('a collector that is down costs the spans, never a request or the stop', async () => {
    const gone = await collector();
    await gone.close();
    dir = mkdtempSync(path.join(tmpdir(), 'exhale-otlp-'));
    const exhale = await startExhale(
      loadConfig({ EXHALE_DATA_DIR: dir, EXHALE_PORT: '0', EXHALE_ECB_RATES: 'off' }),
      { quiet: true, env: { OTEL_EXPORTER_OTLP_ENDPOINT: gone.url } },
    );
    const health = await fetch(`${exhale.http.url}/healthz`);
    expect(health.status).toBe(200);
    await expect(exhale.stop()).resolves.toBeUndefined();
  });

  it('without it, nothing is exported and the SDK is not loaded', async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'exhale-otlp-'));
    const { startTracing } = await import('../../bot/tracing.ts');
    expect(await startTracing({})).toBeNull();
  });
});
