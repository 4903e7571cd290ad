import { op } from './api.ts';

/**
 * The overview's data, asked for at start-up alongside `/api/me` rather than after it: the first
 * screen then waits for one round trip, not two. Taken once; later loads fetch afresh.
 */
export function loadOverview() {
  return Promise.all([
    op('get_totals', { group_by: 'category' }),
    op('get_upcoming', { days: 30 }),
    op('get_context', {}),
  ]).then(([totals, upcoming, context]) => ({
    totals: totals.output,
    upcoming: upcoming.output,
    context: context.output,
  }));
}

let early: ReturnType<typeof loadOverview> | null = null;

export function prefetchOverview(): void {
  early = loadOverview();
  // A failure is the overview's to show when it takes the data; not an unhandled rejection.
  early.catch(() => undefined);
}

export function overviewData(): ReturnType<typeof loadOverview> {
  const taken = early;
  early = null;
  return taken ?? loadOverview();
}
