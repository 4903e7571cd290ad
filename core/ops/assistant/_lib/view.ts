import { z } from 'zod';

import { PROVIDERS } from '../../../domain/providers.ts';
import {
  type AssistantConfigOverride,
  overriddenFields,
  resolveSettings,
  type StoredSettings,
} from '../../../store/repos/assistantSettings.ts';
import { parsePrices } from '../../../domain/prices.ts';

const PRICE = /^\d{1,6}(\.\d{1,6})?$/;

export const PriceInput = z
  .object({
    input: z
      .string()
      .refine((v) => PRICE.test(v), { params: { i18n: 'assistant.settings.price' } })
      .describe('Dollars per million input tokens, such as "3.00".'),
    output: z
      .string()
      .refine((v) => PRICE.test(v), { params: { i18n: 'assistant.settings.price' } })
      .describe('Dollars per million output tokens, such as "15.00".'),
  })
  .strict();

export const AssistantSettings = z.object({
  enabled: z.boolean().describe('Whether the assistant answers: a provider and a model are set.'),
  provider: z
    .enum(PROVIDERS)
    .nullable()
    .describe('anthropic (Messages API) or openai (any OpenAI-compatible server).'),
  model: z.string().nullable(),
  base_url: z.string().nullable().describe("The server's base URL; null for the provider's own."),
  api_key_set: z
    .boolean()
    .describe('Whether an API key is stored or set by the environment (never shown).'),
  from_environment: z
    .array(z.enum(['provider', 'model', 'api_key', 'base_url']))
    .describe('Fields the server environment (EXHALE_ASSISTANT_*) sets over the stored ones.'),
  prices: z
    .record(z.string(), z.object({ input: z.string(), output: z.string() }))
    .describe('Prices the household set, by model name, in dollars per million tokens.'),
});
export type AssistantSettings = z.infer<typeof AssistantSettings>;

/** What any surface may show of the settings: everything in force except the key itself. */
export function settingsView(
  stored: StoredSettings,
  env: AssistantConfigOverride,
): AssistantSettings {
  const resolved = resolveSettings(stored, env);
  const { row } = stored;
  const provider =
    env.provider ??
    (row?.provider === 'anthropic' || row?.provider === 'openai' ? row.provider : null);
  return {
    enabled: resolved !== null,
    provider,
    model: env.model ?? row?.model ?? null,
    base_url: env.baseUrl ?? row?.base_url ?? null,
    api_key_set: Boolean(env.apiKey ?? stored.apiKey),
    from_environment: overriddenFields(env),
    prices: parsePrices(row?.prices ?? null),
  };
}
