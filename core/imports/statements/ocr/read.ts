import { prepareImage, type ImageKind } from './image.ts';
import { cleanOcrText } from './clean.ts';
import { pictureKey, recentText, rememberText } from './recent.ts';
import { renderPdfPages } from './scanned.ts';
import { type OcrOptions, recognizeText } from './worker.ts';

/**
 * OCR text of a picture of a statement, or of a scanned PDF's pages, cleaned for the line
 * reader (see clean.ts). Each picture is prepared by sharp, then read by the process's one
 * tesseract worker in its turn, within its time bound (worker.ts). A picture read moments ago
 * is not read again (recent.ts).
 */

export type { OcrOptions } from './worker.ts';

export async function imageText(
  bytes: Uint8Array,
  kind: ImageKind,
  options: OcrOptions = {},
): Promise<string> {
  const key = pictureKey(bytes);
  const known = recentText(key);
  if (known !== undefined) return known;
  const png = await prepareImage(bytes, kind);
  const text = cleanOcrText(await recognizeText(png, options));
  rememberText(key, text);
  return text;
}

/**
 * The text of every page of a scanned PDF; `onProgress` runs 0 to 1 over all its pages, and
 * `onPage` hears each page (1-based) with its own share read, 0 to 1.
 */
export async function scannedPdfText(
  bytes: Uint8Array,
  options: OcrOptions & {
    onPage?: ((page: number, pages: number, done: number) => void) | undefined;
  } = {},
): Promise<string> {
  const key = pictureKey(bytes);
  const known = recentText(key);
  if (known !== undefined) return known;
  const pages = await renderPdfPages(bytes);
  const texts: string[] = [];
  for (const [i, page] of pages.entries()) {
    const { onProgress, onPage } = options;
    onPage?.(i + 1, pages.length, 0);
    const png = await prepareImage(page, 'png');
    texts.push(
      await recognizeText(png, {
        timeoutMs: options.timeoutMs,
        onProgress: (done) => {
          onProgress?.((i + done) / pages.length);
          onPage?.(i + 1, pages.length, done);
        },
      }),
    );
  }
  const text = cleanOcrText(texts.join('\n\n'));
  rememberText(key, text);
  return text;
}
