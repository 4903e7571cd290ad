import { OpError } from '../../errors/index.ts';
import { readCsv } from './csv.ts';
import { decodeStatement } from './encoding.ts';
import { readLines } from './lines.ts';
import { imageKind } from './ocr/image.ts';
import { imageText, type OcrOptions, scannedPdfText } from './ocr/read.ts';
import { looksLikeOfx, readOfx } from './ofx.ts';
import { pdfText } from './pdf.ts';
import { stepReporter } from './progress.ts';
import type { ReadStatement } from './types.ts';
import { emptyFile, unreadable } from './unreadable.ts';

/**
 * One statement file to transactions, whatever its format: OFX/QFX by its header, PDF by its
 * magic bytes (its text then goes through the line reader; a scanned PDF, with no text, is
 * rendered and OCR'd), a picture (JPEG, PNG, WebP, TIFF, HEIF/AVIF) by its magic bytes (OCR,
 * then the line reader), else text: CSV first, and the line reader when no CSV columns are found
 * (pdftotext output, a pasted statement). OCR is slow (seconds a picture), bounded in time, and
 * reports its progress to `options.onProgress` and to the hook of withReadProgress() (as
 * `picture` or `page` steps; the hook's `finding` step is the op's to report).
 * Limits are checked before any parsing, so an oversized file costs nothing; each is refused
 * with an OpError whose text says which limit and, for an unreadable file, which formats work;
 * an empty file (no bytes, or only blank lines) is refused as empty.
 */

export const STATEMENT_LIMITS = {
  bytes: 20 * 1024 * 1024,
  rows: 100_000,
  lineChars: 1024 * 1024,
} as const;

function checkText(text: string): void {
  let lines = 0;
  let start = 0;
  for (let i = text.indexOf('\n'); ; i = text.indexOf('\n', start)) {
    const end = i === -1 ? text.length : i;
    if (end - start > STATEMENT_LIMITS.lineChars)
      throw new OpError('too_large', 'errors.statements.line_too_long', { max: '1 MB' });
    if (end > start + 1 || (end > start && text[start] !== '\r')) lines++;
    if (i === -1) break;
    start = i + 1;
  }
  // A header and a preamble come on top of the rows.
  if (lines > STATEMENT_LIMITS.rows + 50)
    throw new OpError('too_large', 'errors.statements.too_many_rows', { max: '100,000' });
}

/** The transactions in OCR text, refused as unreadable when there are none. */
function fromOcr(text: string, encoding: string): ReadStatement & { encoding: string } {
  checkText(text);
  const read = readLines(text, 'image');
  if (read.transactions.length === 0) throw unreadable();
  return { ...read, encoding };
}

export async function readStatementFile(
  bytes: Uint8Array,
  options: OcrOptions = {},
): Promise<ReadStatement & { encoding: string }> {
  const report = stepReporter();
  const picture: OcrOptions = {
    ...options,
    onProgress: (done) => {
      options.onProgress?.(done);
      report({ step: 'picture', done });
    },
  };
  const scanned = {
    ...options,
    onPage: (page: number, pages: number, done: number) =>
      report({ step: 'page', page, pages, done }),
  };
  if (bytes.length > STATEMENT_LIMITS.bytes)
    throw new OpError('too_large', 'errors.statements.too_large', { max: '20 MB' });
  if (bytes.length === 0) throw emptyFile();
  if (bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46) {
    let text: string;
    try {
      text = await pdfText(bytes);
    } catch {
      throw unreadable();
    }
    // No text at all: the pages are pictures (a scan).
    if (text.trim() === '') return fromOcr(await scannedPdfText(bytes, scanned), 'ocr');
    checkText(text);
    const read = readLines(text, 'pdf');
    if (read.transactions.length === 0) throw unreadable();
    return { ...read, encoding: 'pdf' };
  }
  const kind = imageKind(bytes);
  if (kind) return fromOcr(await imageText(bytes, kind, picture), 'ocr');
  // Text: a NUL byte means a binary file (a photo, a spreadsheet) that no text reader can use.
  if (bytes.subarray(0, 8192).includes(0) && !(bytes[0] === 0xff || bytes[0] === 0xfe))
    throw unreadable();
  const { text, encoding } = await decodeStatement(bytes);
  if (text.trim() === '') throw emptyFile();
  checkText(text);
  const read = looksLikeOfx(text) ? readOfx(text) : readCsv(text);
  if (read.transactions.length > 0 || read.format === 'ofx') return { ...read, encoding };
  const lines = readLines(text, 'text');
  if (lines.transactions.length === 0) throw unreadable();
  return { ...lines, encoding };
}
