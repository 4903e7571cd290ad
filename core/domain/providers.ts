/** The model protocols the built-in assistant speaks: Anthropic Messages and OpenAI-compatible chat completions. */
export const PROVIDERS = ['anthropic', 'openai'] as const;
export type Provider = (typeof PROVIDERS)[number];
