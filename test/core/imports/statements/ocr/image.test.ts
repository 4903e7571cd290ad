import sharp from 'sharp';
import { describe, expect, it } from 'vitest';

import { imageKind } from '../../../../../core/imports/statements/ocr/image.ts';

const create = (format: 'jpeg' | 'png' | 'webp' | 'tiff' | 'avif') =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
    .toFormat(format)
    .toBuffer();

describe('imageKind (pictures told by their magic bytes)', () => {
  it('knows JPEG, PNG, WebP, TIFF and HEIF/AVIF from their first bytes', async () => {
    expect(imageKind(await create('jpeg'))).toBe('jpeg');
    expect(imageKind(await create('png'))).toBe('png');
    expect(imageKind(await create('webp'))).toBe('webp');
    expect(imageKind(await create('tiff'))).toBe('tiff');
    expect(imageKind(await create('avif'))).toBe('heif');
  });

  it('takes a text, a PDF or a GIF for no picture it reads', () => {
    expect(imageKind(Buffer.from('Date,Description,Amount\n'))).toBeNull();
    expect(imageKind(Buffer.from('%PDF-1.4\n'))).toBeNull();
    expect(imageKind(Buffer.from('GIF89a'))).toBeNull();
    expect(imageKind(new Uint8Array(0))).toBeNull();
  });
});
