import { PassThrough } from 'node:stream';

import { describe, expect, it } from 'vitest';

import { createLogger, logOpCalls } from '../../bot/log.ts';

function capture() {
  const stream = new PassThrough();
  const lines: string[] = [];
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
  return { stream, lines };
}

describe('the process log', () => {
  it('writes one JSON object a line where no terminal reads it, with the level named and secrets redacted', async () => {
    const out = capture();
    const logger = createLogger({ level: 'info', destination: out.stream });
    logger.info({ token: 'exh_secret', requestId: 'r1' }, 'started');
    logger.debug('not at info');
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.lines).toHaveLength(1);
    const entry = JSON.parse(out.lines[0]!) as Record<string, unknown>;
    expect(entry).toMatchObject({
      level: 'info',
      msg: 'started',
      requestId: 'r1',
      token: '[redacted]',
    });
    expect(typeof entry.time).toBe('string');
  });

  it('logs an op call with its op, surface, channel, household, outcome and duration; reads only at debug', async () => {
    const out = capture();
    const logger = createLogger({ level: 'info', format: 'json', destination: out.stream });
    const record = logOpCalls(logger);
    const call = {
      surface: 'mcp' as const,
      actorKind: 'agent' as const,
      channel: 'mcp' as const,
      householdId: 'hh_1',
      dryRun: false,
      durationMs: 3.14159,
    };
    record({ ...call, op: 'get_totals', effect: 'read', outcome: 'ok' });
    record({ ...call, op: 'create_tag', effect: 'write', outcome: 'ok' });
    record({ ...call, op: 'get_subscription', effect: 'read', outcome: 'not_found' });
    await new Promise((resolve) => setImmediate(resolve));
    const entries = out.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries.map((e) => [e.op, e.outcome])).toEqual([
      ['create_tag', 'ok'],
      ['get_subscription', 'not_found'],
    ]);
    expect(entries[0]).toMatchObject({
      surface: 'mcp',
      channel: 'mcp',
      household: 'hh_1',
      ms: 3.1,
      msg: 'op create_tag',
    });
  });

  it('writes readable lines when asked for pretty', async () => {
    const out = capture();
    const logger = createLogger({ level: 'info', format: 'pretty', destination: out.stream });
    logger.info('Telegram connected.');
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.lines.join('\n')).toMatch(/INFO.*Telegram connected\./);
    expect(out.lines.join('\n')).not.toContain('{"');
  });
});
