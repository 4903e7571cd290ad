import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Tests of time limits force garbage collection while a call waits (see callDeadline).
    execArgv: ['--expose-gc'],
    // Every `exhale` a test starts runs the sources through tsx, never a dist/ build (bin/exhale.mjs).
    env: { EXHALE_FROM_SOURCE: '1' },
  },
});
