// `npm install` (postinstall) and `npm run build`: the build steps, in order. A step that fails
// prints one line and the install still succeeds: `exhale` then runs from source with tsx, as it
// does whenever a build is missing or older than the sources (bin/exhale.mjs).
import console from 'node:console';
import { performance } from 'node:perf_hooks';

import { buildApp } from './buildApp.mjs';
import { buildServer } from './serverBuild.mjs';

/** Each step: a name for its line, and a function that builds it or throws with a short reason. */
const STEPS = [
  { name: 'server (dist/)', run: () => buildServer() },
  // Skipped when miniapp/dist is newer than the app's sources.
  { name: 'Mini App (miniapp/dist/)', run: () => buildApp() },
];

for (const step of STEPS) {
  const started = performance.now();
  try {
    await step.run();
    console.log(`exhale: built the ${step.name} in ${Math.round(performance.now() - started)} ms`);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.log(
      `exhale: could not build the ${step.name} (${reason}); exhale runs from source with tsx instead`,
    );
  }
}
