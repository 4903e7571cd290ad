import { createClient } from '../../../core/assistant/client.ts';
import type { Provider } from '../../../core/domain/providers.ts';
import type { ModelRequest, ModelResponse } from '../../../core/assistant/model.ts';
import { type Handler, startLlmServer } from '../../fakes/llmServer.ts';

export const HELLO: ModelRequest = {
  system: 'Be brief.',
  messages: [{ role: 'user', parts: [{ type: 'text', text: 'Hello' }] }],
  tools: [],
  toolChoice: 'auto',
  maxTokens: 256,
};

export interface Outcome {
  response?: ModelResponse;
  error?: Error;
  streamed: string;
  requests: number;
}

/** Runs one call against a fake server answering with `handler`, streaming unless `stream` is false. */
export async function callFake(
  provider: Provider,
  handler: Handler,
  options: {
    stream?: boolean;
    request?: ModelRequest;
    apiKey?: string | null;
    baseUrl?: (url: string) => string;
    model?: string;
  } = {},
): Promise<Outcome & { server: Awaited<ReturnType<typeof startLlmServer>> }> {
  const server = await startLlmServer(handler);
  const client = createClient(
    {
      provider,
      model: options.model ?? 'test-model',
      apiKey: options.apiKey === undefined ? 'sk-test' : options.apiKey,
      baseUrl: options.baseUrl ? options.baseUrl(server.url) : server.url,
    },
    fetch,
    { retryDelayMs: 5 },
  );
  let streamed = '';
  const sink =
    options.stream === false ? undefined : { onText: (d: string) => void (streamed += d) };
  try {
    const response = await client.complete(options.request ?? HELLO, sink);
    return { response, streamed, requests: server.requests.length, server };
  } catch (error) {
    return { error: error as Error, streamed, requests: server.requests.length, server };
  } finally {
    await server.close();
  }
}

/** A compact, comparable view of a response. */
export function summary(r: ModelResponse): unknown {
  return {
    stop: r.stop,
    rawStop: r.rawStop,
    text: r.parts.map((p) => (p.type === 'text' ? p.text : '')).join(''),
    calls: r.parts.flatMap((p) =>
      p.type === 'tool_call'
        ? [{ id: p.id, name: p.name, arguments: p.arguments, invalid: p.invalid !== undefined }]
        : [],
    ),
    reasoning: r.parts.flatMap((p) =>
      p.type === 'reasoning'
        ? [{ text: p.text.length, signature: p.signature ?? null, redacted: p.redacted ?? null }]
        : [],
    ),
    usage: r.usage,
  };
}
