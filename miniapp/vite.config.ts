import { fileURLToPath } from 'node:url';

import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'vite';

/**
 * The Mini App: served by Exhale at /app/ from miniapp/dist (see docs/miniapp.md). The dev server
 * proxies the API to a running `exhale` (EXHALE_URL, default http://127.0.0.1:8080).
 */
const root = fileURLToPath(new URL('.', import.meta.url));
const api = process.env.EXHALE_URL ?? 'http://127.0.0.1:8080';

export default defineConfig(({ command }) => ({
  root,
  base: '/app/',
  plugins: [vue()],
  // A build is always the production app, whatever NODE_ENV the builder runs under: a test run
  // (vitest sets NODE_ENV=test) or a server started from one must not leave Vue's development
  // build (its warnings and checks: 14 KB gzipped more, and 60% slower to a first screen) in
  // miniapp/dist for the next `npm start` to serve.
  define: command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Screens other than the overview are their own chunks, loaded when opened.
    chunkSizeWarningLimit: 250,
    // Rolldown's PLUGIN_TIMINGS warning measures the machine (a slow install box spends its time
    // in the Vue plugin), not the app: printed in the middle of `npm install`, nobody can act on it.
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  server: {
    fs: { allow: [fileURLToPath(new URL('..', import.meta.url))] },
    proxy: { '/api': api, '/mcp': api, '/cal': api },
  },
}));
