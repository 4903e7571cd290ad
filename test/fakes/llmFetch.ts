import type { Handler, RecordedRequest } from './llmServer.ts';

/**
 * The same fakes as llmServer.ts, answered in process instead of over a socket: an instantly
 * answering model for benchmarks of the assistant's own time (no network in the measurement).
 */
export function fakeFetch(handler: Handler): {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  requests: RecordedRequest[];
} {
  const requests: RecordedRequest[] = [];
  return {
    requests,
    async fetch(input, init) {
      const raw = typeof init.body === 'string' ? init.body : '';
      const url = new URL(input);
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((v, k) => (headers[k] = v));
      const request: RecordedRequest = {
        method: init.method ?? 'GET',
        path: url.pathname,
        headers,
        body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {},
        raw,
      };
      requests.push(request);
      const reply = await handler(request, requests.length - 1);
      return new Response(reply.body, {
        status: reply.status ?? 200,
        headers: reply.headers ?? { 'content-type': 'application/json' },
      });
    },
  };
}
