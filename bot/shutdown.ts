/** How long a stop may take before the process exits anyway. */
export const STOP_BOUND_MS = 10_000;

/** One part of the process to stop, named for the line that says what was still open. */
export interface StopStep {
  name: string;
  stop: () => Promise<void>;
}

/**
 * Stops the process in phases: the steps of one phase run together, and a phase starts once the
 * one before has ended (requests are finished before the database they use is closed). Resolves
 * `true` when everything stopped within `boundMs`, else `false` once the bound has passed, with
 * `open` naming what had not finished.
 */
export async function stopInPhases(
  phases: ReadonlyArray<readonly StopStep[]>,
  options: { boundMs?: number; log: (line: string, error?: unknown) => void },
): Promise<{ stopped: boolean; open: string[] }> {
  const open = new Set<string>();
  const run = async (): Promise<void> => {
    for (const phase of phases) {
      await Promise.all(
        phase.map(async (step) => {
          open.add(step.name);
          try {
            await step.stop();
          } catch (error) {
            options.log(`stop: ${step.name} failed`, error);
          } finally {
            open.delete(step.name);
          }
        }),
      );
    }
  };
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), options.boundMs ?? STOP_BOUND_MS);
  });
  const stopped = await Promise.race([run().then(() => true as const), bound]);
  clearTimeout(timer);
  return { stopped, open: [...open] };
}

/**
 * On SIGTERM or SIGINT: says so, runs `stop`, and exits 0 when it ended within the bound, else 1
 * with a line saying what was still open. A second signal while stopping exits at once (1).
 */
export function stopOnSignals(
  stop: () => Promise<{ stopped: boolean; open: string[] }>,
  log: (line: string) => void,
): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (stopping) process.exit(1);
      stopping = true;
      log(`Stopping (${signal}): finishing requests in flight…`);
      void stop().then(({ stopped, open }) => {
        if (stopped) {
          log('Exhale stopped.');
          process.exit(0);
        }
        log(
          `Exhale did not stop within ${STOP_BOUND_MS / 1000} s; exiting with still open: ${open.join(', ')}.`,
        );
        process.exit(1);
      });
    });
  }
}
