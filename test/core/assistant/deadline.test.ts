import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { callDeadline } from '../../../core/assistant/loop.ts';

/** A model server that never answers. */
let server: Server;
let url: string;
beforeAll(async () => {
  server = createServer(() => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("a model call's time limit", () => {
  it('stops a call that never answers, even when garbage is collected while it waits', async () => {
    const gc = (globalThis as { gc?: () => void }).gc;
    expect(gc, 'tests run with --expose-gc').toBeTypeOf('function');
    const deadline = callDeadline(new AbortController().signal, 300);
    const started = Date.now();
    const call = fetch(url, { signal: deadline.signal }).then(
      () => 'answered',
      (error: unknown) => (error instanceof Error ? error.name : 'failed'),
    );
    const collector = setInterval(() => gc?.(), 20);
    const outcome = await Promise.race([
      call,
      new Promise((resolve) => setTimeout(() => resolve('still waiting'), 5_000)),
    ]);
    clearInterval(collector);
    deadline.done();
    expect(outcome).toBe('TimeoutError');
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it("ends with the message's own limit, and stops its timer once the call is done", async () => {
    const message = new AbortController();
    const deadline = callDeadline(message.signal, 60_000);
    message.abort(new Error('message limit'));
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as Error).message).toBe('message limit');
    const quiet = callDeadline(new AbortController().signal, 50);
    quiet.done();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(quiet.signal.aborted).toBe(false);
  });
});
