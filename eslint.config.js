import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'data/', 'dist/', 'miniapp/dist/', 'coverage/', '.scratch/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    files: ['core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/bot/**',
                '**/mcp/**',
                '**/miniapp/**',
                'grammy',
                '@grammyjs/*',
                '@modelcontextprotocol/*',
                '@slack/*',
              ],
              message: 'core/ imports no adapter: dependencies point inward (see AGENTS.md).',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['bot/**/*.ts', 'mcp/**/*.ts', 'miniapp/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+core/(?!index\\.ts$|chat/index\\.ts$)',
              message:
                'Adapters import core only through core/index.ts (or core/chat/index.ts): see AGENTS.md.',
            },
          ],
        },
      ],
    },
  },
);
