import { type Database, refreshEcbRates } from '../core/index.ts';

const SIX_HOURS = 6 * 3_600_000;

/**
 * Keeps the ECB reference rates fresh: at start (the last 90 days when none are stored yet), then
 * every six hours (the ECB publishes once a working day; a refresh that finds nothing new is cheap).
 * Without a network the totals keep working on stored or manual rates and say so.
 */
export function startEcbRefresh(db: Database, log: (line: string) => void): { stop(): void } {
  const refresh = async (): Promise<void> => {
    const stored = (await db.knex('fx_rates').where({ household_id: '' }).first('id')) as
      { id: string } | undefined;
    const result = await refreshEcbRates(db, { history: stored ? false : '90d' });
    if (result.ok)
      log(`ECB rates refreshed: ${result.rows} rates, newest ${result.latest ?? 'none'}.`);
    else
      log(
        `ECB rates not refreshed (${result.errors.join('; ')}); totals use the rates already stored.`,
      );
  };
  const run = () =>
    void refresh().catch((error: unknown) => log(`ECB refresh failed: ${String(error)}`));
  run();
  const timer = setInterval(run, SIX_HOURS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
