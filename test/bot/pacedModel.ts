import type { Core } from '../../core/kernel/core.ts';
import { type Assistant, createAssistant } from '../../core/assistant/index.ts';
import type { Limits } from '../../core/assistant/limits.ts';
import { type ScriptProtocol, type ScriptStep, scripted } from '../fakes/llmScript.ts';
import type { Handler, RecordedRequest } from '../fakes/llmServer.ts';

/**
 * The scripted model of the assistant's tests, answered in process like llmFetch.ts but streamed
 * event by event with a pause between events, as a real model writes, so a channel's live view
 * (drafts, edits, printed deltas) can be watched.
 */
export function pacedFetch(
  handler: Handler,
  gapMs: number,
): {
  fetch: (input: string, init: RequestInit) => Promise<Response>;
  requests: RecordedRequest[];
} {
  const requests: RecordedRequest[] = [];
  return {
    requests,
    async fetch(input, init) {
      const raw = typeof init.body === 'string' ? init.body : '';
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((v, k) => (headers[k] = v));
      const request: RecordedRequest = {
        method: init.method ?? 'GET',
        path: new URL(input).pathname,
        headers,
        body: raw ? (JSON.parse(raw) as Record<string, unknown>) : {},
        raw,
      };
      requests.push(request);
      const reply = await handler(request, requests.length - 1);
      const events = reply.body.split(/(?<=\n\n)/);
      const encoder = new TextEncoder();
      let next = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (next > 0 && gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
          const event = events[next];
          next += 1;
          if (event === undefined) controller.close();
          else controller.enqueue(encoder.encode(event));
        },
      });
      return new Response(body, {
        status: reply.status ?? 200,
        headers: reply.headers ?? { 'content-type': 'application/json' },
      });
    },
  };
}

export interface ScriptedAssistant {
  assistant: Assistant;
  /** What the model was sent, one entry per model call. */
  requests: RecordedRequest[];
}

/**
 * The real assistant over `core` with a scripted model. Configured for every household through
 * the override (as the EXHALE_ASSISTANT_* environment would), or off with `configured: false`.
 */
export function scriptedAssistant(
  core: Core,
  steps: ScriptStep[],
  options: {
    protocol?: ScriptProtocol;
    gapMs?: number;
    limits?: Partial<Limits>;
    configured?: boolean;
  } = {},
): ScriptedAssistant {
  const protocol = options.protocol ?? 'anthropic';
  const model = pacedFetch(scripted(protocol, steps), options.gapMs ?? 0);
  const assistant = createAssistant({
    core,
    config:
      options.configured === false
        ? {}
        : {
            provider: protocol,
            model: 'test-model',
            apiKey: 'sk-test',
            baseUrl: 'http://model.test/v1',
          },
    fetch: model.fetch,
    limits: options.limits,
    http: { retryDelayMs: 1 },
    log: () => undefined,
  });
  return { assistant, requests: model.requests };
}

/** The text of the member's last message in a model request, whichever protocol. */
export function lastQuestion(request: RecordedRequest): string {
  const messages = (request.body.messages ?? []) as Array<Record<string, unknown>>;
  const last = [...messages].reverse().find((m) => m.role === 'user');
  const content = last?.content;
  if (typeof content === 'string') return content;
  return ((content ?? []) as Array<Record<string, unknown>>)
    .map((block) => (block.type === 'text' ? String(block.text) : ''))
    .join('');
}
