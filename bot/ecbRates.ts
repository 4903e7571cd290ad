import { type Database, refreshEcbRates, runClaimedJob } from '../core/index.ts';

/** The ECB publishes once a working day; a refresh that finds nothing new is cheap. */
const ECB_SCHEDULE = { everyMs: 6 * 3_600_000, leaseMs: 10 * 60_000 };
/** How often a process checks whether the refresh is due (the claim decides who runs it). */
const CHECK_EVERY_MS = 15 * 60_000;

/** A refresh that reached no rates: already logged, and not counted as run (tried at the next check). */
class NotRefreshed extends Error {}

/**
 * Keeps the ECB reference rates fresh: every six hours across every process on the database (the
 * `job_runs` claim: one process downloads, a restart does not download again), the last 90 days
 * when none are stored yet. Without a network the totals keep working on stored or manual rates
 * and say so; a failed refresh is tried again at the next check.
 */
export function startEcbRefresh(
  db: Database,
  log: (line: string) => void,
  clock: () => Date = () => new Date(),
): { stop(): void; check(): Promise<boolean> } {
  const refresh = async (): Promise<void> => {
    const stored = (await db.knex('fx_rates').where({ household_id: '' }).first('id')) as
      { id: string } | undefined;
    const result = await refreshEcbRates(db, { history: stored ? false : '90d' });
    if (result.ok)
      log(`ECB rates refreshed: ${result.rows} rates, newest ${result.latest ?? 'none'}.`);
    else {
      log(
        `ECB rates not refreshed (${result.errors.join('; ')}); totals use the rates already stored.`,
      );
      throw new NotRefreshed();
    }
  };
  const check = (): Promise<boolean> =>
    runClaimedJob(db, 'ecb_refresh', clock(), ECB_SCHEDULE, refresh);
  const run = () =>
    void check().catch((error: unknown) => {
      if (!(error instanceof NotRefreshed)) log(`ECB refresh failed: ${String(error)}`);
    });
  run();
  const timer = setInterval(run, CHECK_EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer), check };
}
