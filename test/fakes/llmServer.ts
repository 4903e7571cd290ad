import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Exchange } from './llmFixtures.ts';

/** A request the fake model received, its JSON body parsed. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  // The body is whatever the client sent; tests read fields of it.
  body: Record<string, unknown>;
  raw: string;
}

/** What the fake answers: a status, headers and a body written in pieces. */
export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  body: string;
  /** Split the body into random pieces of 1..max bytes (mid-line, mid-UTF-8), seeded for replay. */
  split?: { seed: number; max: number } | undefined;
  /** Drop the connection after this many bytes of body. */
  cutAfter?: number | undefined;
  /** Wait this long before answering. */
  delayMs?: number | undefined;
}

export type Handler = (request: RecordedRequest, index: number) => FakeReply | Promise<FakeReply>;

export interface FakeLlm {
  /** The base URL with `/v1`, as a provider's would be. */
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A deterministic PRNG (mulberry32), so a failing split can be replayed from its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The body cut into pieces of 1..max bytes. */
export function pieces(body: Buffer, split: { seed: number; max: number } | undefined): Buffer[] {
  if (!split) return [body];
  const random = prng(split.seed);
  const out: Buffer[] = [];
  for (let at = 0; at < body.length;) {
    const size = 1 + Math.floor(random() * split.max);
    out.push(body.subarray(at, at + size));
    at += size;
  }
  return out;
}

/** An HTTP server on 127.0.0.1 speaking whatever the handler answers. */
export async function startLlmServer(handler: Handler): Promise<FakeLlm> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        let body: Record<string, unknown>;
        try {
          body = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          body = {};
        }
        const recorded: RecordedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body,
          raw,
        };
        requests.push(recorded);
        let reply: FakeReply;
        try {
          reply = await handler(recorded, requests.length - 1);
        } catch (error) {
          reply = {
            status: 500,
            headers: { 'content-type': 'text/plain' },
            body: `fake handler failed: ${String(error)}`,
          };
        }
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        res.writeHead(reply.status ?? 200, reply.headers ?? { 'content-type': 'application/json' });
        const data = Buffer.from(reply.body, 'utf8');
        const limit = reply.cutAfter ?? data.length;
        let sent = 0;
        for (const piece of pieces(data, reply.split)) {
          if (res.destroyed) return;
          const part = piece.subarray(0, Math.max(0, limit - sent));
          if (part.length > 0) res.write(part);
          sent += part.length;
          if (sent >= limit && limit < data.length) {
            await new Promise((r) => setImmediate(r));
            res.destroy();
            return;
          }
          if (reply.split) await new Promise((r) => setImmediate(r));
        }
        res.end();
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers the replies in order; a request past the end is a test failure (500). */
export function queue(...replies: FakeReply[]): Handler {
  return (_req, index) => {
    const reply = replies[index];
    if (!reply)
      throw new Error(`the fake got request ${index + 1} but only ${replies.length} were scripted`);
    return reply;
  };
}

/** The exchanges of a recorded fixture as replies, each body split at random points with `seed`. */
export function replay(exchanges: Exchange[], seed?: number): Handler {
  return queue(
    ...exchanges.map((e, i) => ({
      status: e.status,
      headers: e.headers,
      body: e.body,
      split:
        seed === undefined
          ? undefined
          : { seed: seed + i, max: Math.max(7, Math.ceil(e.body.length / 150)) },
    })),
  );
}
