import { createHash } from 'node:crypto';

/**
 * The OCR text of the last few pictures read, by the SHA-256 of their bytes. read_statement and
 * then import_candidates read the same picture; the second read, inside import_candidates'
 * transaction (which holds SQLite's write lock), then takes no OCR time at all. It only spares
 * work: the text of a picture is the same every time, and what is kept is small (a few KB each).
 */

const KEEP = 8;
const texts = new Map<string, string>();

export function pictureKey(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function recentText(key: string): string | undefined {
  const text = texts.get(key);
  if (text !== undefined) {
    // Most recently used last, so the oldest is the first to go.
    texts.delete(key);
    texts.set(key, text);
  }
  return text;
}

export function rememberText(key: string, text: string): void {
  texts.delete(key);
  texts.set(key, text);
  for (const oldest of texts.keys()) {
    if (texts.size <= KEEP) break;
    texts.delete(oldest);
  }
}
