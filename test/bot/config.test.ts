import { describe, expect, it } from 'vitest';

import { ConfigError, loadConfig } from '../../bot/config.ts';

/** docs/assistant.md: an unknown provider in the environment is refused at start-up, not ignored. */
describe('the assistant provider in the environment', () => {
  it('refuses an unknown provider at start-up, naming the ones that work', () => {
    expect(() => loadConfig({ EXHALE_ASSISTANT_PROVIDER: 'bogus' })).toThrow(ConfigError);
    expect(() => loadConfig({ EXHALE_ASSISTANT_PROVIDER: 'bogus' })).toThrow(
      /EXHALE_ASSISTANT_PROVIDER: must be "anthropic" or "openai".*\(got "bogus"\)/,
    );
  });

  it('takes a known one in any case', () => {
    expect(loadConfig({ EXHALE_ASSISTANT_PROVIDER: 'OpenAI' }).EXHALE_ASSISTANT_PROVIDER).toBe(
      'openai',
    );
  });
});
