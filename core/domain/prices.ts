// Model prices and what a call cost: pure arithmetic on decimal strings, no I/O.

/** Dollars per million tokens, as decimal strings ("3.00"). */
export interface Price {
  input: string;
  output: string;
}

/** Model name → price. A name matches itself and its dated snapshots (`gpt-4o` matches `gpt-4o-2024-08-06`). */
export type PriceTable = Record<string, Price>;

/**
 * List prices at the time of writing (USD per million tokens, uncached input). Owners override or
 * extend them per household; a model not listed has no price and no cost is invented for it.
 */
export const DEFAULT_PRICES: PriceTable = {
  'claude-opus-4-1': { input: '15', output: '75' },
  'claude-opus-4': { input: '15', output: '75' },
  'claude-opus-4-5': { input: '5', output: '25' },
  'claude-sonnet-4-5': { input: '3', output: '15' },
  'claude-sonnet-4': { input: '3', output: '15' },
  'claude-3-7-sonnet': { input: '3', output: '15' },
  'claude-3-5-sonnet': { input: '3', output: '15' },
  'claude-haiku-4-5': { input: '1', output: '5' },
  'claude-3-5-haiku': { input: '0.80', output: '4' },
  'claude-3-haiku': { input: '0.25', output: '1.25' },
  'gpt-5': { input: '1.25', output: '10' },
  'gpt-5-mini': { input: '0.25', output: '2' },
  'gpt-5-nano': { input: '0.05', output: '0.40' },
  'gpt-4.1': { input: '2', output: '8' },
  'gpt-4.1-mini': { input: '0.40', output: '1.60' },
  'gpt-4.1-nano': { input: '0.10', output: '0.40' },
  'gpt-4o': { input: '2.50', output: '10' },
  'gpt-4o-mini': { input: '0.15', output: '0.60' },
};

const PRICE = /^\d{1,6}(\.\d{1,6})?$/;

export function isPrice(value: unknown): value is Price {
  if (typeof value !== 'object' || value === null) return false;
  const { input, output } = value as Record<string, unknown>;
  return (
    typeof input === 'string' &&
    typeof output === 'string' &&
    PRICE.test(input) &&
    PRICE.test(output)
  );
}

/** A stored price table (JSON text); entries that are not prices are dropped. */
export function parsePrices(text: string | null): PriceTable {
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([, v]) => isPrice(v))) as PriceTable;
  } catch {
    return {};
  }
}

/** The price of a model: the household's table over the built-in one, exact name or a dated snapshot. */
export function priceOf(model: string, table: PriceTable): Price | null {
  const name = model.toLowerCase().replace(/^.*\//, '');
  const tables = [table, DEFAULT_PRICES];
  for (const t of tables) {
    const exact = t[model] ?? t[name];
    if (exact) return exact;
  }
  for (const t of tables) {
    let best: string | null = null;
    for (const key of Object.keys(t)) {
      if (!name.startsWith(`${key.toLowerCase()}-`)) continue;
      const rest = name.slice(key.length + 1);
      // Only a date or "latest" after the name: `claude-opus-4` does not price `claude-opus-4-7`.
      if (!/^(\d{4}-?\d{2}-?\d{2}|latest)$/.test(rest)) continue;
      if (best === null || key.length > best.length) best = key;
    }
    if (best !== null) return t[best] ?? null;
  }
  return null;
}

/** Millionths of a dollar per token, ×10^6 (so integers): "3" $/Mtok → 3_000_000. */
function picoPerToken(price: string): number {
  const [whole = '0', frac = ''] = price.split('.');
  return Number(whole) * 1_000_000 + Number(frac.padEnd(6, '0').slice(0, 6));
}

/** Estimated cost in millionths of a dollar; null without a price. */
export function costMicros(
  usage: { inputTokens: number; outputTokens: number },
  price: Price | null,
): number | null {
  if (!price) return null;
  const pico =
    usage.inputTokens * picoPerToken(price.input) + usage.outputTokens * picoPerToken(price.output);
  return Math.round(pico / 1_000_000);
}
