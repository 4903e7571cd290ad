/**
 * Bytes to text. A statement is UTF-8 (with or without BOM) or UTF-16 with a BOM, or else one of
 * the single-byte code pages European banks export in (Windows-1250/1252/1257, ISO-8859-1/2/15).
 * Valid UTF-8 is taken as UTF-8 (a single-byte file with accents is almost never valid UTF-8);
 * otherwise chardet's statistical guess picks the code page, limited to those above, and
 * TextDecoder (ICU, shipped with Node) decodes it. chardet is loaded only then: a start, and
 * every UTF-8 file, never needs it.
 */

/** The code pages we accept from chardet, by its names, as WHATWG labels for TextDecoder. */
const SINGLE_BYTE: Readonly<Record<string, string>> = {
  'windows-1250': 'windows-1250',
  'windows-1252': 'windows-1252',
  'windows-1257': 'windows-1257',
  'ISO-8859-1': 'windows-1252',
  'ISO-8859-2': 'iso-8859-2',
  'ISO-8859-15': 'iso-8859-15',
};

export interface Decoded {
  text: string;
  /** The encoding used, as a WHATWG label ("utf-8", "windows-1250"...). */
  encoding: string;
}

export async function decodeStatement(bytes: Uint8Array): Promise<Decoded> {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8' };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: new TextDecoder('utf-16le').decode(bytes.subarray(2)), encoding: 'utf-16le' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff)
    return { text: new TextDecoder('utf-16be').decode(bytes.subarray(2)), encoding: 'utf-16be' };
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    // Not UTF-8: a single-byte code page, guessed below.
  }
  // chardet reads a sample; the first 64 KB carry the header and enough accented words.
  const { default: chardet } = await import('chardet');
  const guess = chardet
    .analyse(bytes.subarray(0, 65_536))
    .find((m) => SINGLE_BYTE[m.name] !== undefined);
  const encoding = guess ? (SINGLE_BYTE[guess.name] ?? 'windows-1252') : 'windows-1252';
  return { text: new TextDecoder(encoding).decode(bytes), encoding };
}
