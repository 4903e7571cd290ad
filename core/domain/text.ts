/**
 * Text as people search it: case and accents ignored ("musica" finds "Música", "EDUCATION" finds
 * "Éducation"), the same on SQLite and PostgreSQL because it is done here, not by the database
 * (SQLite's lower() and LIKE fold ASCII only).
 */
export function searchKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLocaleLowerCase('und')
    .replace(/\s+/g, ' ');
}

/** Whether any of `fields` contains `query`, compared by searchKey. */
export function matchesText(query: string, fields: ReadonlyArray<string | null>): boolean {
  const needle = searchKey(query.trim());
  return fields.some((field) => field !== null && searchKey(field).includes(needle));
}

/**
 * One collator for the whole process, built once: `a.localeCompare(b)` with no arguments means
 * the same order but may build a collator per call, which dominates sorting thousands of items.
 */
const DEFAULT_COLLATOR = new Intl.Collator();

/** Exactly `a.localeCompare(b)` (the default locale and options), without its per-call cost. */
export function localeOrder(a: string, b: string): number {
  return DEFAULT_COLLATOR.compare(a, b);
}
