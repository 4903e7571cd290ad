import { OpError } from '../../errors/index.ts';

/** The formats a person can send, as the unreadable-file sentence lists them. */
const FORMATS = 'CSV, OFX/QFX, PDF, or a photo or screenshot (JPEG, PNG, WebP, TIFF)';

/** The refusal of a file no reader finds transactions in (or cannot open), naming what works. */
export function unreadable(): OpError {
  return new OpError('invalid_input', 'errors.statements.unreadable', { formats: FORMATS });
}

/** The refusal of a file with nothing in it (no bytes, or only blank lines). */
export function emptyFile(): OpError {
  return new OpError('invalid_input', 'errors.importReview.empty');
}
