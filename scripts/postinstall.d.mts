// Types of scripts/postinstall.mjs (plain JavaScript: it runs before tsx), for the tests.
/** What one build step did: built, found up to date, found nothing to build, or failed. */
export type StepResult = 'built' | 'up-to-date' | 'no-app' | 'failed';
/** Runs every build step in `root` (default: this repository), one line each through `log`. */
export declare function runBuildSteps(
  root?: string,
  log?: (line: string) => void,
): Promise<Record<string, StepResult>>;
