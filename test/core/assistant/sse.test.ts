import { describe, expect, it } from 'vitest';

import { SseParser, sseEvents } from '../../../core/assistant/sse.ts';
import { pieces } from '../../fakes/llmServer.ts';

function parseAll(text: string): Array<{ event: string; data: string }> {
  const parser = new SseParser();
  return [...parser.push(text), ...parser.end()].map(({ event, data }) => ({ event, data }));
}

describe('the SSE parser', () => {
  it('dispatches on blank lines, joins data lines and drops one space after the colon', () => {
    expect(parseAll('event: a\ndata: 1\ndata:2\n\ndata:  3\n\n')).toEqual([
      { event: 'a', data: '1\n2' },
      { event: 'message', data: ' 3' },
    ]);
  });

  it('accepts \\r\\n and \\r line ends, skips comments and unknown fields', () => {
    expect(
      parseAll(': OPENROUTER PROCESSING\r\n\r\nretry: 10\rdata: x\r\rfoo: bar\ndata: y\r\n\r\n'),
    ).toEqual([
      { event: 'message', data: 'x' },
      { event: 'message', data: 'y' },
    ]);
  });

  it('delivers a last event that lacks its blank line', () => {
    expect(parseAll('data: {"a":1}')).toEqual([{ event: 'message', data: '{"a":1}' }]);
  });

  it('gives the same events however the bytes are split, mid-line and mid-UTF-8', async () => {
    const text =
      'event: delta\ndata: {"text":"año → 日本 🎉"}\r\n\r\n: ping\n\ndata: b\rdata: c\r\n\r\n';
    const whole = parseAll(text);
    for (let seed = 1; seed <= 40; seed += 1) {
      const parts = pieces(Buffer.from(text, 'utf8'), { seed, max: 4 });
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          for (const p of parts) controller.enqueue(new Uint8Array(p));
          controller.close();
        },
      });
      const events: Array<{ event: string; data: string }> = [];
      for await (const e of sseEvents(body)) events.push({ event: e.event, data: e.data });
      expect(events).toEqual(whole);
    }
  });
});
