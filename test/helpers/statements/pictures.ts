import { crc32, deflateSync } from 'node:zlib';

import sharp from 'sharp';

/**
 * Pictures of statements built in the test from text, so the OCR tests need nothing outside the
 * repository: lines rendered as SVG text (DejaVu Sans, the fonts-dejavu-core package) by sharp,
 * then made as bad as a phone makes them (blur, a slight turn, JPEG artefacts, EXIF rotation).
 */

export interface PictureOptions {
  /** Width of the picture in pixels; the text is laid out from the left margin. */
  width?: number;
  fontSize?: number;
  /** Light text on a dark background, as a banking app's night theme. */
  dark?: boolean;
  /** Gaussian blur sigma (0: none). */
  blur?: number;
  /** Degrees to turn the picture by, as a photo taken slightly askew. */
  rotate?: number;
  /** JPEG quality; PNG when left out. */
  jpeg?: number;
  /** Store the pixels turned 90° left and EXIF orientation 6, as a phone held upright does. */
  exifOrientation6?: boolean;
  /** Height of the picture; by default just enough for the lines. */
  height?: number;
}

const escapeXml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export async function statementPicture(lines: string[], o: PictureOptions = {}): Promise<Buffer> {
  const width = o.width ?? 1000;
  const size = o.fontSize ?? 24;
  const step = Math.round(size * 1.7);
  const height = o.height ?? step * (lines.length + 1);
  const [bg, fg] = o.dark ? ['#121212', '#e8e8e8'] : ['#ffffff', '#000000'];
  const text = lines
    .map(
      (l, i) =>
        `<text x="${Math.round(size * 0.8)}" y="${step * (i + 1)}" font-family="DejaVu Sans" font-size="${size}" fill="${fg}" xml:space="preserve">${escapeXml(l)}</text>`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${bg}"/>${text}</svg>`;
  let image = sharp(Buffer.from(svg));
  if (o.blur) image = sharp(await image.blur(o.blur).png().toBuffer());
  if (o.rotate) image = sharp(await image.rotate(o.rotate, { background: bg }).png().toBuffer());
  if (o.exifOrientation6) image = sharp(await image.rotate(270).png().toBuffer());
  const out = o.jpeg ? image.jpeg({ quality: o.jpeg }) : image.png();
  return (o.exifOrientation6 ? out.withMetadata({ orientation: 6 }) : out).toBuffer();
}

function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A PNG of a few dozen bytes (one row of pixels, compressed) whose header claims `width`×`height` pixels: what a reader must
 * refuse from the header alone, without allocating the pixels.
 */
export function pngClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(0, 9); // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    // One row of pixels (a filter byte and `width` zeros) of the `height` claimed: a header
    // decoders accept, with nothing behind it.
    chunk('IDAT', deflateSync(Buffer.alloc(1 + width))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A page of a scanned PDF: a JPEG and its size in pixels. */
export interface ScannedPage {
  jpeg: Buffer;
  width: number;
  height: number;
}

/**
 * A scanned statement: a one-page PDF whose only content is a JPEG picture of the page (no
 * text), as a scanner or a phone's "scan document" makes it.
 */
export function scannedPdf(jpeg: Buffer, width: number, height: number): Buffer {
  return scannedPdfPages([{ jpeg, width, height }]);
}

/**
 * A scanned statement of several pages, each only a JPEG picture of the page. Written by hand (a
 * few objects' worth of PDF syntax a page) so no PDF library is needed.
 */
export function scannedPdfPages(pages: readonly ScannedPage[]): Buffer {
  // Objects 1 and 2 are the catalog and the page tree; page i is objects 3+3i (the page), 4+3i
  // (its picture) and 5+3i (its content). Each page is its picture at 72 dpi: one point a pixel.
  const kids = pages.map((_, i) => `${3 + 3 * i} 0 R`).join(' ');
  const objects: Array<Buffer | string> = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`,
  ];
  pages.forEach(({ jpeg, width, height }, i) => {
    const content = `q ${width} 0 0 ${height} 0 0 cm /Im0 Do Q`;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /XObject << /Im0 ${4 + 3 * i} 0 R >> >> /Contents ${5 + 3 * i} 0 R >>`,
      Buffer.concat([
        Buffer.from(
          `<< /Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${jpeg.length} >>\nstream\n`,
          'latin1',
        ),
        jpeg,
        Buffer.from('\nendstream', 'latin1'),
      ]),
      `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    );
  });
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n', 'latin1')];
  const offsets: number[] = [];
  let at = parts[0]?.length ?? 0;
  objects.forEach((body, i) => {
    const obj = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`, 'latin1'),
      typeof body === 'string' ? Buffer.from(body, 'latin1') : body,
      Buffer.from('\nendobj\n', 'latin1'),
    ]);
    offsets.push(at);
    parts.push(obj);
    at += obj.length;
  });
  const xref = [
    'xref',
    `0 ${objects.length + 1}`,
    '0000000000 65535 f ',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
    'trailer',
    `<< /Size ${objects.length + 1} /Root 1 0 R >>`,
    'startxref',
    String(at),
    '%%EOF',
  ].join('\n');
  parts.push(Buffer.from(`${xref}\n`, 'latin1'));
  return Buffer.concat(parts);
}
