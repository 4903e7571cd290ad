import type { Provider } from '../domain/providers.ts';
import { anthropicClient } from './anthropic.ts';
import { DEFAULT_HTTP, type FetchLike, type HttpOptions, normaliseBaseUrl } from './http.ts';
import type { ModelClient } from './model.ts';
import { openAiClient } from './openai.ts';

export const DEFAULT_BASE_URL: Record<Provider, string> = {
  anthropic: 'https://api.anthropic.com/v1',
  openai: 'https://api.openai.com/v1',
};

export interface ClientSettings {
  provider: Provider;
  model: string;
  apiKey: string | null;
  /** Null for the provider's own endpoint. A bare host gets `/v1`. */
  baseUrl: string | null;
}

/** The client for a provider's protocol. Local servers (Ollama, LM Studio, vLLM) speak `openai`. */
export function createClient(
  settings: ClientSettings,
  fetch: FetchLike,
  http: Partial<Omit<HttpOptions, 'fetch'>> = {},
): ModelClient {
  const options = {
    baseUrl: normaliseBaseUrl(settings.baseUrl ?? DEFAULT_BASE_URL[settings.provider]),
    apiKey: settings.apiKey && settings.apiKey.trim() !== '' ? settings.apiKey.trim() : null,
    model: settings.model,
    http: { ...DEFAULT_HTTP, ...http, fetch },
  };
  switch (settings.provider) {
    case 'anthropic':
      return anthropicClient(options);
    case 'openai':
      return openAiClient(options);
    default: {
      const unreachable: never = settings.provider;
      return unreachable;
    }
  }
}
