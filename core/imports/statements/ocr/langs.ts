import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { z } from 'zod';

/**
 * The OCR languages, from the npm packages `@tesseract.js-data/{eng,spa}` (installed with the
 * app, so nothing is downloaded at run time). tesseract.js reads every language of one worker
 * from a single folder, and each package has its own: both gzipped files are copied into one
 * folder under the OS temp dir when a worker starts, and the folder is removed when it ends.
 */

export const OCR_LANGUAGES = ['eng', 'spa'] as const;

/**
 * What each data package exports: `langPath` is its `4.0.0` folder (the legacy and LSTM models
 * together); its sibling `4.0.0_best_int` holds the LSTM-only integer model, which is what the
 * worker runs (OEM.LSTM_ONLY) at a fifth of the size and memory (eng 5 MB instead of 23, spa 3 MB
 * instead of 18) — tesseract.js itself picks that folder for LSTM-only workers when it downloads.
 */
const DataPackage = z.object({ code: z.string(), gzip: z.literal(true), langPath: z.string() });

const require = createRequire(import.meta.url);

function dataPackage(code: (typeof OCR_LANGUAGES)[number]): z.infer<typeof DataPackage> {
  // Static names, so bundlers and `npm ls` see both packages.
  const loaded: unknown =
    code === 'eng' ? require('@tesseract.js-data/eng') : require('@tesseract.js-data/spa');
  return DataPackage.parse(loaded);
}

/** A fresh folder holding every language's `.traineddata.gz`; pass it to removeLanguageFolder when done. */
export async function languageFolder(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'exhale-ocr-'));
  for (const code of OCR_LANGUAGES) {
    const data = dataPackage(code);
    await copyFile(
      join(dirname(data.langPath), '4.0.0_best_int', `${data.code}.traineddata.gz`),
      join(folder, `${data.code}.traineddata.gz`),
    );
  }
  return folder;
}

export async function removeLanguageFolder(folder: string): Promise<void> {
  await rm(folder, { recursive: true, force: true });
}
