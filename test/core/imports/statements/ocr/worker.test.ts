import { spawn } from 'node:child_process';

import { afterAll, describe, expect, it } from 'vitest';

import { OpError } from '../../../../../core/errors/index.ts';
import { prepareImage } from '../../../../../core/imports/statements/ocr/image.ts';
import {
  ocrRunning,
  recognizeText,
  stopOcr,
} from '../../../../../core/imports/statements/ocr/worker.ts';
import { statementPicture } from '../../../../helpers/statements/pictures.ts';

/** The one OCR worker of a process: shared in turn, bounded, ended cleanly. */

async function refusal(promise: Promise<unknown>): Promise<OpError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof OpError)) throw new Error(`expected an OpError, got ${String(error)}`);
  return error;
}

const picture = async (lines: string[]) => prepareImage(await statementPicture(lines), 'png');

afterAll(() => stopOcr());

describe('the OCR worker', () => {
  it('reads two pictures sent at once through one worker, one after the other', async () => {
    const [a, b] = await Promise.all([
      picture(['03 NOV  NETFLIX.COM  -15.99']),
      picture(['05 NOV  PAYPAL *SPOTIFY  -10.99']),
    ]);
    const events: string[] = [];
    const [textA, textB] = await Promise.all([
      recognizeText(a, { onProgress: (p) => events.push(`a ${p}`) }),
      recognizeText(b, { onProgress: (p) => events.push(`b ${p}`) }),
    ]);
    expect(textA).toContain('NETFLIX.COM');
    expect(textB).toContain('SPOTIFY');
    // Queued, not interleaved: every report of the second comes after the first is done.
    const lastA = events.lastIndexOf('a 1');
    expect(events.findIndex((e) => e.startsWith('b '))).toBeGreaterThan(lastA);
    expect(ocrRunning()).toBe(true);
  });

  it('refuses a picture that runs past its time bound, ends the worker, and reads the next one afresh', async () => {
    const slow = await picture(['03 NOV  NETFLIX.COM  -15.99', '05 NOV  SPOTIFY  -10.99']);
    const error = await refusal(recognizeText(slow, { timeoutMs: 1 }));
    expect(error.code).toBe('too_large');
    expect(error.message).toBe(
      'Reading the text in this picture took longer than 1 seconds, so Exhale stopped. Send a sharper or smaller picture, or the statement as CSV or PDF. Nothing was read.',
    );
    expect(ocrRunning()).toBe(false);
    expect(await recognizeText(slow)).toContain('SPOTIFY');
  });

  it('stopOcr refuses the picture being read and those waiting, and ends the worker', async () => {
    const one = await picture(['03 NOV  NETFLIX.COM  -15.99']);
    const reading = refusal(recognizeText(one));
    const waiting = refusal(recognizeText(one));
    await stopOcr();
    expect((await reading).key).toBe('errors.statements.ocr_stopped');
    expect((await waiting).key).toBe('errors.statements.ocr_stopped');
    expect(ocrRunning()).toBe(false);
  });

  it('leaves no handle behind after stopOcr: a process that read a picture exits on its own', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        new URL('../../../../helpers/statements/ocrChild.ts', import.meta.url).pathname,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(out.trim()).toBe('1');
  });
});
