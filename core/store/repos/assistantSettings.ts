import type { Knex } from 'knex';

import type { TrackedTable } from '../tracked.ts';
import { PROVIDERS, type Provider } from '../../domain/providers.ts';
import { type PriceTable, parsePrices } from '../../domain/prices.ts';

/**
 * The assistant's configuration: a household's stored settings, each field overridden by the
 * process environment (`EXHALE_ASSISTANT_PROVIDER`, `_API_KEY`, `_MODEL`, `_BASE_URL`). Off until
 * a provider and a model are known; while off nothing is sent anywhere.
 */

/** The settings table is a household's data, written through TrackedTx for audit and undo. */
export const SETTINGS_TABLE = 'assistant_settings' satisfies TrackedTable;

/**
 * The API key's own table, deliberately outside TRACKED_TABLES: a tracked row's before and after
 * images go into the audit entry and a dry run's changes, and a key must reach neither. Written
 * only by `saveApiKey`, never undone.
 */
export const SECRETS_TABLE = 'assistant_secrets';

/** A row of the settings table: everything but the key. */
export interface SettingsRow {
  id: string;
  household_id: string;
  provider: string | null;
  model: string | null;
  base_url: string | null;
  prices: string | null;
  updated_at: string;
}

/**
 * What a household has stored: its settings row and, apart, its API key. Either may exist without
 * the other (undoing the first update removes the row and leaves the key).
 */
export interface StoredSettings {
  row: SettingsRow | null;
  apiKey: string | null;
}

/** Fields set outside the database (environment, or the process that creates the assistant). */
export interface AssistantConfigOverride {
  provider?: Provider | undefined;
  model?: string | undefined;
  apiKey?: string | undefined;
  baseUrl?: string | undefined;
  /** Extra prices, over the built-in table and under the household's own. */
  prices?: PriceTable | undefined;
}

export interface ResolvedSettings {
  provider: Provider;
  model: string;
  apiKey: string | null;
  baseUrl: string | null;
  prices: PriceTable;
}

export const settingsId = (householdId: string): string => `as_${householdId}`;

const isProvider = (v: unknown): v is Provider =>
  typeof v === 'string' && (PROVIDERS as readonly string[]).includes(v);

/**
 * The overrides the environment sets. An unknown provider name never gets this far in `exhale`:
 * start-up refuses it (bot/config.ts); here it overrides nothing rather than guess.
 */
export function overridesFromEnv(env: NodeJS.ProcessEnv = process.env): AssistantConfigOverride {
  const pick = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value ? value : undefined;
  };
  const provider = pick('EXHALE_ASSISTANT_PROVIDER')?.toLowerCase();
  return {
    provider: isProvider(provider) ? provider : undefined,
    model: pick('EXHALE_ASSISTANT_MODEL'),
    apiKey: pick('EXHALE_ASSISTANT_API_KEY'),
    baseUrl: pick('EXHALE_ASSISTANT_BASE_URL'),
  };
}

/** Names of the fields the overrides set (shown to the owner, never their values). */
export function overriddenFields(
  override: AssistantConfigOverride,
): Array<'provider' | 'model' | 'api_key' | 'base_url'> {
  const out: Array<'provider' | 'model' | 'api_key' | 'base_url'> = [];
  if (override.provider) out.push('provider');
  if (override.model) out.push('model');
  if (override.apiKey) out.push('api_key');
  if (override.baseUrl) out.push('base_url');
  return out;
}

export async function loadSettingsRow(
  db: Knex | Knex.Transaction,
  householdId: string,
): Promise<SettingsRow | null> {
  const row = (await db(SETTINGS_TABLE)
    .where({ id: settingsId(householdId) })
    .first()) as SettingsRow | undefined;
  return row ?? null;
}

export async function loadStoredSettings(
  db: Knex | Knex.Transaction,
  householdId: string,
): Promise<StoredSettings> {
  const row = await loadSettingsRow(db, householdId);
  const secret = (await db(SECRETS_TABLE).where({ household_id: householdId }).first()) as
    { api_key: string } | undefined;
  return { row, apiKey: secret?.api_key ?? null };
}

/**
 * Stores (or, with null, removes) a household's API key. Callers pass the op's transaction so the
 * key commits or rolls back with the rest of the change, and must not call it in a dry run.
 */
export async function saveApiKey(
  trx: Knex | Knex.Transaction,
  householdId: string,
  apiKey: string | null,
  now: string,
): Promise<void> {
  if (apiKey === null) {
    await trx(SECRETS_TABLE).where({ household_id: householdId }).delete();
    return;
  }
  await trx(SECRETS_TABLE)
    .insert({ household_id: householdId, api_key: apiKey, updated_at: now })
    .onConflict('household_id')
    .merge(['api_key', 'updated_at']);
}

/** The settings in force for a household, or null when the assistant is off there. */
export function resolveSettings(
  { row, apiKey }: StoredSettings,
  override: AssistantConfigOverride,
): ResolvedSettings | null {
  const storedProvider = isProvider(row?.provider) ? row.provider : undefined;
  const provider = override.provider ?? storedProvider;
  const model = override.model ?? row?.model ?? undefined;
  if (!provider || !model) return null;
  return {
    provider,
    model,
    apiKey: override.apiKey ?? apiKey,
    baseUrl: override.baseUrl ?? row?.base_url ?? null,
    prices: { ...(override.prices ?? {}), ...parsePrices(row?.prices ?? null) },
  };
}
