import { describe, expect, it } from 'vitest';

import { costMicros, DEFAULT_PRICES, parsePrices, priceOf } from '../../../core/domain/prices.ts';

describe('estimated cost', () => {
  it('prices a model by its name or a dated snapshot of it, never a different model that shares a prefix', () => {
    expect(priceOf('gpt-4o', {})).toEqual(DEFAULT_PRICES['gpt-4o']);
    expect(priceOf('gpt-4o-2024-08-06', {})).toEqual(DEFAULT_PRICES['gpt-4o']);
    expect(priceOf('gpt-4o-mini-2024-07-18', {})).toEqual(DEFAULT_PRICES['gpt-4o-mini']);
    expect(priceOf('claude-sonnet-4-5-20250929', {})).toEqual(DEFAULT_PRICES['claude-sonnet-4-5']);
    expect(priceOf('openai/gpt-4.1-mini', {})).toEqual(DEFAULT_PRICES['gpt-4.1-mini']);
    expect(priceOf('claude-opus-4-7', {})).toBeNull();
    expect(priceOf('llama3.2', {})).toBeNull();
  });

  it('lets the household price a model, over the built-in table', () => {
    expect(priceOf('llama3.2', { 'llama3.2': { input: '0', output: '0' } })).toEqual({
      input: '0',
      output: '0',
    });
    expect(priceOf('gpt-4o', { 'gpt-4o': { input: '1', output: '1' } })).toEqual({
      input: '1',
      output: '1',
    });
  });

  it('counts integer millionths of a dollar, and invents nothing without a price', () => {
    expect(
      costMicros({ inputTokens: 1_000_000, outputTokens: 0 }, { input: '3', output: '15' }),
    ).toBe(3_000_000);
    expect(
      costMicros({ inputTokens: 1234, outputTokens: 567 }, { input: '0.15', output: '0.60' }),
    ).toBe(Math.round(1234 * 0.15 + 567 * 0.6));
    expect(
      costMicros({ inputTokens: 7, outputTokens: 3 }, { input: '0.000001', output: '1.5' }),
    ).toBe(5);
    expect(costMicros({ inputTokens: 1000, outputTokens: 1000 }, null)).toBeNull();
  });

  it('drops stored prices that are not decimal strings', () => {
    expect(
      parsePrices('{"a":{"input":"1","output":"2"},"b":{"input":1,"output":"2"},"c":"x"}'),
    ).toEqual({ a: { input: '1', output: '2' } });
    expect(parsePrices('not json')).toEqual({});
  });
});
