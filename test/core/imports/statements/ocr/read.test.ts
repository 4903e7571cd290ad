import { afterAll, describe, expect, it } from 'vitest';

import { OpError } from '../../../../../core/errors/index.ts';
import { formatScaled } from '../../../../../core/imports/statements/amounts.ts';
import { stopOcr } from '../../../../../core/imports/statements/ocr/worker.ts';
import { withReadProgress } from '../../../../../core/imports/statements/progress.ts';
import { readStatementFile } from '../../../../../core/imports/statements/read.ts';
import type { ReadStatement } from '../../../../../core/imports/statements/types.ts';
import {
  pngClaiming,
  scannedPdf,
  statementPicture,
} from '../../../../helpers/statements/pictures.ts';

/** Pictures of statements read through OCR (tesseract.js, English and Spanish, no download). */

const ENGLISH = [
  'CARD STATEMENT  28 FEB 2026',
  '03 NOV  NETFLIX.COM 866-579-7172  -15.99',
  '05 NOV  PAYPAL *SPOTIFY 3531436  -10.99',
  '15 NOV  SQ *IRON GYM London  -1,030.00',
  '27 NOV  ACME GMBH SALARY  +2,500.00',
];
const SPANISH = [
  'EXTRACTO DE CUENTA  30/11/2025',
  '03/11/2025  Suscripción Movistar Fibra  -29,99',
  '05/11/2025  Recibo Gimnasio Sanitas  -45,50',
  '18/11/2025  Compra Mercadona  -1.230,15',
  '28/11/2025  Nómina ACME  +1.850,00',
];

function sumOf(read: ReadStatement): string {
  return formatScaled(
    read.transactions.reduce((s, t) => s + t.amount, 0),
    2,
  );
}

async function refusal(promise: Promise<unknown>): Promise<OpError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof OpError)) throw new Error(`expected an OpError, got ${String(error)}`);
  return error;
}

afterAll(() => stopOcr());

describe('readStatementFile with pictures (OCR)', () => {
  it('reads an English statement photographed badly: blurred, turned 2°, JPEG quality 60', async () => {
    const photo = await statementPicture(ENGLISH, { blur: 0.8, rotate: 2, jpeg: 60 });
    const read = await readStatementFile(photo);
    expect(read.format).toBe('image');
    expect(read.transactions.map((t) => [t.date, formatScaled(t.amount, 2)])).toEqual([
      ['2025-11-03', '-15.99'],
      ['2025-11-05', '-10.99'],
      ['2025-11-15', '-1030.00'],
      ['2025-11-27', '2500.00'],
    ]);
    expect(read.transactions[0]?.memo).toContain('NETFLIX.COM');
    expect(sumOf(read)).toBe('1443.02');
  });

  it('reads a Spanish statement with decimal commas, accents and thousands points', async () => {
    const photo = await statementPicture(SPANISH, { blur: 0.8, rotate: 2, jpeg: 60 });
    const read = await readStatementFile(photo);
    expect(read.transactions).toHaveLength(4);
    expect(read.transactions.map((t) => t.date)).toEqual([
      '2025-11-03',
      '2025-11-05',
      '2025-11-18',
      '2025-11-28',
    ]);
    expect(sumOf(read)).toBe('544.36');
  });

  it('reads a dark-theme banking app screenshot (1170×2532) whose rows sit under date headings', async () => {
    const screenshot = await statementPicture(
      [
        'Movimientos',
        'Lunes, 3 de noviembre de 2025',
        'Netflix  -15,99 €',
        'Mercadona  -42,10 €',
        'Miércoles, 5 de noviembre de 2025',
        'Spotify  -10,99 €',
        'Nómina ACME  +1.850,00 €',
      ],
      { dark: true, width: 1170, height: 2532, fontSize: 44 },
    );
    const read = await readStatementFile(screenshot);
    expect(read.transactions.map((t) => [t.date, t.memo, formatScaled(t.amount, 2)])).toEqual([
      ['2025-11-03', 'Netflix', '-15.99'],
      ['2025-11-03', 'Mercadona', '-42.10'],
      ['2025-11-05', 'Spotify', '-10.99'],
      ['2025-11-05', 'Nómina ACME', '1850.00'],
    ]);
    expect(read.currency).toBe('EUR');
  });

  it('turns a phone photo upright by its EXIF orientation (6: taken holding the phone upright)', async () => {
    const photo = await statementPicture(ENGLISH, { blur: 0.8, jpeg: 60, exifOrientation6: true });
    const read = await readStatementFile(photo);
    expect(read.transactions).toHaveLength(4);
    expect(sumOf(read)).toBe('1443.02');
  });

  it('renders and reads a scanned PDF (its page only a picture, no text)', async () => {
    const page = await statementPicture(ENGLISH, { width: 800, fontSize: 18, jpeg: 80 });
    const { default: sharp } = await import('sharp');
    const { width = 0, height = 0 } = await sharp(page).metadata();
    const read = await readStatementFile(scannedPdf(page, width, height));
    expect(read.format).toBe('image');
    expect(read.transactions).toHaveLength(4);
    expect(sumOf(read)).toBe('1443.02');
  });

  it('reports its progress, from 0 to 1, to the hook of the call it runs in', async () => {
    const seen: number[] = [];
    const photo = await statementPicture(ENGLISH.slice(0, 3));
    await withReadProgress(
      (step) => {
        expect(step.step).toBe('picture');
        if (step.step === 'picture') seen.push(step.done);
      },
      () => readStatementFile(photo),
    );
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)).toBe(1);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
  });

  it('answers a picture read moments ago (read_statement, then import_candidates) without OCR', async () => {
    const photo = await statementPicture(ENGLISH.slice(0, 4));
    const first = await readStatementFile(photo);
    const seen: number[] = [];
    const again = await readStatementFile(photo, { onProgress: (done) => seen.push(done) });
    expect(again.transactions).toEqual(first.transactions);
    expect(seen).toEqual([]);
  });

  it('refuses a picture over 40 megapixels from its header, without decoding it', async () => {
    const huge = pngClaiming(6500, 6400); // 41.6 MP in 100 bytes
    expect(huge.length).toBeLessThan(200);
    const error = await refusal(readStatementFile(huge));
    expect(error.code).toBe('too_large');
    expect(error.message).toBe(
      'The picture has 42 megapixels; Exhale reads pictures of up to 40 megapixels. Send a screenshot or a smaller photo. Nothing was read.',
    );
  });

  it('refuses a file that only starts like a picture, and a picture with no statement in it', async () => {
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 7)]);
    expect((await refusal(readStatementFile(broken))).key).toBe('errors.statements.unreadable');
    const noStatement = await statementPicture(['Hello from the beach', 'See you soon']);
    expect((await refusal(readStatementFile(noStatement))).key).toBe(
      'errors.statements.unreadable',
    );
  });

  it('refuses an iPhone HEIC photo (sharp reads AVIF, not HEVC) saying how to send it instead', async () => {
    const heic = Buffer.concat([
      Buffer.from([0, 0, 0, 24]),
      Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1'),
      Buffer.alloc(64),
    ]);
    const error = await refusal(readStatementFile(heic));
    expect(error.key).toBe('errors.statements.heic');
    expect(error.message).toContain('Send a screenshot, or the photo as JPEG');
  });

  it('refuses a binary file that is no picture with the formats it reads', async () => {
    const gif = Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(32)]);
    const error = await refusal(readStatementFile(gif));
    expect(error.key).toBe('errors.statements.unreadable');
    expect(error.message).toContain('a photo or screenshot (JPEG, PNG, WebP, TIFF)');
  });
});
