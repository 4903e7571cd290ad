import type Sharp from 'sharp';

import { OpError } from '../../../errors/index.ts';
import { unreadable } from '../unreadable.ts';

/**
 * Pictures of statements: which files are pictures (by their magic bytes, never their name), and
 * the preparation OCR reads best (EXIF rotation undone, grey, light text on dark turned dark on
 * light, small text scaled up, contrast stretched). A picture over 40 megapixels is refused from
 * its header alone, before any pixel is decoded, so it costs no memory.
 */

export const IMAGE_LIMITS = {
  /** Larger than any phone camera's photo (a 48 MP sensor saves 12 MP by default). */
  pixels: 40_000_000,
  /**
   * The most pixels handed to tesseract, whose memory grows with them (a phone screenshot of 3 MP
   * peaks the process at 295–305 MB read as it is, 275–290 MB at 2 MP): a screenshot's text, 40
   * pixels high or more, still reads exactly when scaled to fit, and an A4 scan keeps 1190 pixels
   * of width.
   */
  ocrPixels: 2_000_000,
  /** The longest sharp may spend on one picture. */
  sharpSeconds: 20,
} as const;

export type ImageKind = 'jpeg' | 'png' | 'webp' | 'tiff' | 'heif';

const startsWith = (bytes: Uint8Array, magic: readonly number[], at = 0) =>
  magic.every((b, i) => bytes[at + i] === b);

/** The picture format of a file from its first bytes, or null when it is not a picture. */
export function imageKind(bytes: Uint8Array): ImageKind | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  // RIFF....WEBP
  if (startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) && startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8))
    return 'webp';
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a]))
    return 'tiff';
  // ISO base media: ....ftyp then a HEIF brand (heic, heix, mif1, avif…).
  if (startsWith(bytes, [0x66, 0x74, 0x79, 0x70], 4)) {
    const brand = String.fromCharCode(...bytes.subarray(8, 12));
    if (/^(heic|heix|hevc|heim|heis|hevm|hevs|mif1|msf1|avif|avis)$/.test(brand)) return 'heif';
  }
  return null;
}

/** The refusal of a picture sharp cannot decode; for HEIC (iPhone photos) it names the way around it. */
function undecodable(kind: ImageKind): OpError {
  return kind === 'heif' ? new OpError('invalid_input', 'errors.statements.heic') : unreadable();
}

/**
 * The width to read a picture at. Narrow pictures are scaled up to 1600 pixels (a statement's
 * small print is then 20–30 pixels high, what tesseract reads best); every picture is kept under
 * OCR_PIXELS, since tesseract's memory grows with the pixels it reads (a phone screenshot,
 * 1170×2532, is read at 961×2080).
 */
function ocrWidth(width: number, height: number): number {
  const wanted = width < 1100 ? 1600 : Math.min(width, 2600);
  const fit = Math.floor(width * Math.sqrt(IMAGE_LIMITS.ocrPixels / Math.max(1, width * height)));
  return Math.max(1, Math.min(wanted, fit));
}

/**
 * The picture ready for OCR, as a PNG: one channel, dark text on a light background, at the
 * width ocrWidth gives.
 */
export async function prepareImage(bytes: Uint8Array, kind: ImageKind): Promise<Buffer> {
  // Loaded on the first picture: sharp's native library is costly, and most processes never read one.
  const sharp: typeof Sharp = (await import('sharp')).default;
  let meta: Awaited<ReturnType<ReturnType<typeof sharp>['metadata']>>;
  try {
    meta = await sharp(bytes).metadata();
  } catch {
    throw undecodable(kind);
  }
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  if (pixels > IMAGE_LIMITS.pixels)
    throw new OpError('too_large', 'errors.statements.image_too_large', {
      megapixels: Math.round(pixels / 1e6),
      max: IMAGE_LIMITS.pixels / 1e6,
    });
  // EXIF orientations 5–8 swap width and height once the picture is turned upright.
  const turned = (meta.orientation ?? 1) >= 5;
  const width = (turned ? meta.height : meta.width) ?? 0;
  const height = (turned ? meta.width : meta.height) ?? 0;
  const target = ocrWidth(width, height);
  const open = () =>
    sharp(bytes, { limitInputPixels: IMAGE_LIMITS.pixels, failOn: 'none' })
      .timeout({ seconds: IMAGE_LIMITS.sharpSeconds })
      .rotate()
      .grayscale();
  try {
    // A dark theme (a banking app at night): light text on dark, which tesseract reads poorly.
    const { channels } = await open().resize({ width: 64 }).stats();
    const dark = (channels[0]?.mean ?? 255) < 110;
    let image = open();
    if (dark) image = image.negate({ alpha: false });
    return await image
      .resize({ width: target, kernel: 'lanczos3' })
      .normalise()
      .png({ compressionLevel: 1 })
      .toBuffer();
  } catch (error) {
    if (error instanceof OpError) throw error;
    throw undecodable(kind);
  }
}
