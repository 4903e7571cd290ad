import { z } from 'zod';

import { PROVIDERS } from '../../domain/providers.ts';
import { Secret } from '../../domain/secret.ts';
import {
  loadSettingsRow,
  loadStoredSettings,
  overridesFromEnv,
  saveApiKey,
  SETTINGS_TABLE,
  settingsId,
} from '../../store/repos/assistantSettings.ts';
import { defineOp } from '../../kernel/op.ts';
import { household, nowIso } from '../shared/context.ts';
import { AssistantSettings, PriceInput, settingsView } from './_lib/view.ts';

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export const updateAssistantSettings = defineOp({
  name: 'update_assistant_settings',
  title: 'Configure the assistant',
  description:
    "Turns the built-in assistant on or changes its model: provider anthropic (Anthropic's Messages API) or openai (OpenAI, OpenRouter, Mistral, Groq, xAI, Gemini's compatible endpoint, or a local Ollama, LM Studio or vLLM server), the model name, the server's base URL (a bare host gets /v1) and the API key (stored, never shown again; null removes it). The key is kept out of the activity log, so undoing this change restores the other fields but not the key: set or remove it again instead. Prices, in dollars per million tokens by model name, let Exhale estimate what each question costs. Fields left out stay as they are. Setting the provider or model to null turns the assistant off. Only the owner may; environment variables (EXHALE_ASSISTANT_*) override these fields.",
  input: z.object({
    provider: z.enum(PROVIDERS).nullable().optional(),
    model: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .nullable()
      .optional()
      .describe('Such as "claude-sonnet-4-5", "gpt-4.1-mini" or "llama3.2".'),
    base_url: z
      .string()
      .trim()
      .max(500)
      .refine(isHttpUrl, { params: { i18n: 'assistant.settings.base_url' } })
      .nullable()
      .optional()
      .describe(
        'Such as "http://localhost:11434" for Ollama; null for the provider\'s own server.',
      ),
    api_key: z
      .string()
      .trim()
      .min(1)
      .max(500)
      // Wrapped so the copy of the input kept in the audit entry shows "[hidden]", not the key.
      .transform((key) => new Secret(key))
      .nullable()
      .optional()
      .describe(
        'Stored and never shown again; null removes it. Not restored by undo. Local servers need none.',
      ),
    prices: z
      .record(z.string().trim().min(1).max(200), PriceInput)
      .nullable()
      .optional()
      .describe('Replaces the price table: model name → dollars per million tokens.'),
  }),
  output: AssistantSettings,
  effect: 'write',
  scope: 'trusted',
  ownerOnly: true,
  idempotent: true,
  exclude: {
    mcp: 'Sets a credential for a paid service and decides where household data is sent: for the owner to do in person.',
    assistant:
      'Sets a credential and decides where household data is sent: for the owner to do in person, not the model.',
  },
  async run(ctx, input) {
    const householdId = household(ctx).id;
    const id = settingsId(householdId);
    const now = nowIso(ctx);
    const stored = await loadStoredSettings(ctx.tx.trx, householdId);
    const patch = {
      provider: input.provider,
      model: input.model,
      base_url: input.base_url,
      prices:
        input.prices === undefined
          ? undefined
          : input.prices === null
            ? null
            : JSON.stringify(input.prices),
      updated_at: now,
    };
    if (stored.row) await ctx.tx.update(SETTINGS_TABLE, id, patch);
    else {
      await ctx.tx.insert(SETTINGS_TABLE, {
        id,
        household_id: householdId,
        provider: patch.provider ?? null,
        model: patch.model ?? null,
        base_url: patch.base_url ?? null,
        prices: patch.prices ?? null,
        updated_at: now,
      });
    }
    const apiKey = input.api_key === undefined ? stored.apiKey : (input.api_key?.reveal() ?? null);
    // The one write that bypasses ctx.tx, on purpose: a tracked row would put the key in the audit
    // entry and in the dry run's changes. It runs in the op's transaction (committed or rolled back
    // with the rest) but is not recorded, so undo leaves the key as it is. A dry run writes nothing.
    if (input.api_key !== undefined && !ctx.dryRun)
      await saveApiKey(ctx.tx.trx, householdId, apiKey, now);
    const row = await loadSettingsRow(ctx.tx.trx, householdId);
    return settingsView({ row, apiKey }, overridesFromEnv());
  },
});
