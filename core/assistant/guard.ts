/**
 * Prompt-injection layers two and three's helpers: everything that comes from the database or a
 * file reaches the model as a data block whose angle brackets are neutralised (so no text inside
 * can close the block or open a new instruction tag), with email addresses removed.
 */

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

export function removeEmails(text: string): string {
  return text.replace(EMAIL, '[email removed]');
}

/** JSON text with `<` and `>` as `\u003c`/`\u003e`: still the same JSON, no tag can be spelled. */
export function neutralJson(value: unknown): string {
  return removeEmails(JSON.stringify(value) ?? 'null')
    .replaceAll('<', '\\u003c')
    .replaceAll('>', '\\u003e');
}

/** Free text with angle brackets replaced by look-alikes (‹ ›). */
export function neutralText(text: string): string {
  return removeEmails(text).replaceAll('<', '‹').replaceAll('>', '›');
}

/** A data block: `<data source="…">…</data>`; `body` must already be neutral. */
export function dataBlock(source: string, body: string): string {
  return `<data source="${source.replace(/[^a-z0-9_]/gi, '_')}">\n${body}\n</data>`;
}
