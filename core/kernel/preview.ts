import type { Change, Row } from '../store/tracked.ts';

/**
 * What a change set does, in a form two runs of the same op can be compared by: which rows it
 * inserts, updates and deletes, each row's image before, and its image after. Ids the run itself
 * created and instants (`*_at` columns: the moment of the run) differ between a preview and the
 * real run, so new ids are numbered in order of appearance and instants are left out.
 *
 * A confirmation applies a previewed change only if the real run's fingerprint equals the
 * preview's: "exactly as previewed", or not at all.
 */
export function changeFingerprint(changes: readonly Change[]): string {
  const fresh = new Map<string, string>();
  for (const change of changes)
    if (change.before === null && !fresh.has(change.id)) fresh.set(change.id, `new#${fresh.size}`);
  const value = (v: Row[string]): Row[string] => (typeof v === 'string' ? (fresh.get(v) ?? v) : v);
  const image = (row: Row | null): Row | null => {
    if (row === null) return null;
    const out: Row = {};
    for (const key of Object.keys(row).sort()) {
      if (key.endsWith('_at')) continue;
      out[key] = value(row[key] ?? null);
    }
    return out;
  };
  return JSON.stringify(
    changes.map((c) => [c.table, value(c.id), image(c.before), image(c.after)]),
  );
}
