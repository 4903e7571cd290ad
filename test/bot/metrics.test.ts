import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { loadConfig } from '../../bot/config.ts';
import { type RunningExhale, startExhale } from '../../bot/main.ts';
import { newcomerActor } from '../../core/index.ts';

/** Reads one sample's value from Prometheus text, by its name and exact label set. */
function sample(text: string, name: string, labels: Record<string, string>): number | null {
  const rendered = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${rendered}} `));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : null;
}

describe('/metrics', () => {
  let dir: string;
  let exhale: RunningExhale | undefined;
  afterEach(async () => {
    await exhale?.stop();
    exhale = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(env: Record<string, string> = {}): Promise<RunningExhale> {
    dir = mkdtempSync(path.join(tmpdir(), 'exhale-metrics-'));
    exhale = await startExhale(
      loadConfig({ EXHALE_DATA_DIR: dir, EXHALE_PORT: '0', EXHALE_ECB_RATES: 'off', ...env }),
      { quiet: true },
    );
    return exhale;
  }

  it('answers a loopback scrape in Prometheus text: op calls by op, surface and outcome, errors by code, durations', async () => {
    const running = await start();
    const { core } = running.runtime;
    await core.invoke('create_household', newcomerActor('cli', 'en'), {
      name: 'Home',
      currency: 'EUR',
      time_zone: 'Europe/Madrid',
      language: 'en',
      owner_name: 'Ana',
    });
    const response = await fetch(`${running.http.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const text = await response.text();
    expect(text).toContain('# TYPE exhale_op_calls_total counter');
    expect(text).toContain('# TYPE exhale_op_duration_seconds histogram');
    expect(text).toContain('exhale_process_resident_memory_bytes');
    expect(text).toMatch(
      /exhale_op_calls_total\{op="create_household",surface="internal",outcome="ok"\} 1/,
    );
  });

  it('counts an MCP call that failed under its error code, and an unknown op name as "unknown"', async () => {
    const running = await start();
    const { core } = running.runtime;
    await expect(
      core.invoke('no_such_op', newcomerActor('mcp', 'en'), {}, { surface: 'mcp' }),
    ).rejects.toThrow();
    const text = await (await fetch(`${running.http.url}/metrics`)).text();
    expect(
      sample(text, 'exhale_op_calls_total', {
        op: 'unknown',
        surface: 'mcp',
        outcome: 'not_found',
      }),
    ).toBe(1);
    expect(sample(text, 'exhale_op_errors_total', { code: 'not_found' })).toBe(1);
    expect(text).not.toContain('no_such_op');
  });

  it('with EXHALE_METRICS_TOKEN, refuses a scrape without the token and answers one with it', async () => {
    const token = 'a-long-metrics-token-1234';
    const running = await start({ EXHALE_METRICS_TOKEN: token });
    const refused = await fetch(`${running.http.url}/metrics`);
    expect(refused.status).toBe(401);
    const wrong = await fetch(`${running.http.url}/metrics`, {
      headers: { authorization: 'Bearer a-long-metrics-token-1235' },
    });
    expect(wrong.status).toBe(401);
    const ok = await fetch(`${running.http.url}/metrics`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('exhale_op_calls_total');
  });

  it('without a token, answers nothing a proxy or tunnel on this machine forwarded (the public URL)', async () => {
    const running = await start();
    for (const [name, value] of [
      ['x-forwarded-for', '203.0.113.7'],
      ['forwarded', 'for=203.0.113.7'],
      ['x-real-ip', '203.0.113.7'],
      ['cf-connecting-ip', '203.0.113.7'],
    ] as const) {
      const forwarded = await fetch(`${running.http.url}/metrics`, { headers: { [name]: value } });
      expect(forwarded.status).toBe(404);
    }
    expect((await fetch(`${running.http.url}/metrics`)).status).toBe(200);
  });
});
