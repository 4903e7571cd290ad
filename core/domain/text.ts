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
