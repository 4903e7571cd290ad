import { wallosSubscriptions } from '../../../imports/wallos.ts';
import { OpError } from '../../../errors/index.ts';
import { jsonTextTooDeep, jsonTooDeep, tooDeep } from '../../../kernel/jsonDepth.ts';
import { EXHALE_FORMAT } from './document.ts';

/** The largest file an import reads: 5 MB of JSON text. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

export type SourceFormat = 'exhale' | 'wallos';

/** The document as parsed JSON: a text is size-checked and parsed; parsed JSON is size-checked as text. */
export function readDocument(document: unknown): unknown {
  // Nesting is bounded before anything walks the document (JSON.stringify would overflow the stack).
  if (typeof document === 'string' ? jsonTextTooDeep(document) : jsonTooDeep(document))
    throw tooDeep('errors.data.too_deep');
  const text = typeof document === 'string' ? document : (JSON.stringify(document) ?? '');
  if (Buffer.byteLength(text, 'utf8') > MAX_IMPORT_BYTES) {
    throw new OpError('too_large', 'errors.data.too_large', { max: '5 MB' });
  }
  if (typeof document !== 'string') return document;
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch {
    throw new OpError('invalid_input', 'errors.data.not_json');
  }
}

/** Which format the document is in; `requested` other than 'auto' is checked, not trusted. */
export function detectFormat(value: unknown, requested: 'auto' | SourceFormat): SourceFormat {
  const tagged = typeof value === 'object' && value !== null && !Array.isArray(value) && 'format' in value ? value.format : undefined;
  const exhale = typeof tagged === 'string' && tagged.startsWith('exhale/');
  const wallos = !exhale && wallosSubscriptions(value) !== null;
  if (requested === 'wallos' && !wallos) throw new OpError('invalid_input', 'errors.data.not_that_format', { format: 'Wallos' });
  if (requested === 'exhale' && !exhale) throw new OpError('invalid_input', 'errors.data.not_that_format', { format: 'Exhale' });
  if (exhale) {
    if (tagged !== EXHALE_FORMAT) throw new OpError('invalid_input', 'errors.data.unsupported_version', { format: String(tagged).slice(0, 40) });
    return 'exhale';
  }
  if (wallos) return 'wallos';
  throw new OpError('invalid_input', 'errors.data.unknown_format');
}
