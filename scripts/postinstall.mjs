// `npm install` (postinstall) and `npm run build`: the build steps, in order. A step that fails
// prints one line and the install still succeeds: `exhale` then runs from source with tsx, as it
// does whenever a build is missing or older than the sources (bin/exhale.mjs).
import console from 'node:console';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

import { buildApp } from './buildApp.mjs';
import { buildIsFresh, buildServer, ROOT } from './serverBuild.mjs';

/**
 * Each step: a name for its line, and a function that builds it in `root` (resolving to 'built'),
 * finds it up to date ('up-to-date') or absent ('no-app'), or throws with a short reason. A build
 * that is up to date is never made again: `npx exhale` in the project installs the project into
 * npm's cache as a link, which runs this postinstall, and a rebuild there would replace the files
 * a running server still loads lazily.
 */
const STEPS = [
  {
    name: 'server (dist/)',
    run: (root) => {
      if (buildIsFresh(root)) return 'up-to-date';
      buildServer(root);
      return 'built';
    },
  },
  // Up to date when miniapp/dist is newer than the app's sources.
  { name: 'Mini App (miniapp/dist/)', run: (root) => buildApp({ root: join(root, 'miniapp') }) },
];

/** Runs every step in `root`, one line each, and resolves to what each did, by name. */
export async function runBuildSteps(root = ROOT, log = console.log) {
  const results = {};
  for (const step of STEPS) {
    const started = performance.now();
    try {
      const result = await step.run(root);
      results[step.name] = result;
      if (result === 'built')
        log(`exhale: built the ${step.name} in ${Math.round(performance.now() - started)} ms`);
      else if (result === 'up-to-date') log(`exhale: the ${step.name} is up to date`);
    } catch (error) {
      results[step.name] = 'failed';
      const reason = error instanceof Error ? error.message : String(error);
      log(
        `exhale: could not build the ${step.name} (${reason}); exhale runs from source with tsx instead`,
      );
    }
  }
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  await runBuildSteps();
