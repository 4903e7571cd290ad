import type { Worker } from 'tesseract.js';

import { OpError } from '../../../errors/index.ts';
import { unreadable } from '../unreadable.ts';
import { languageFolder, OCR_LANGUAGES, removeLanguageFolder } from './langs.ts';

/**
 * The one tesseract.js worker of the process: started on the first picture (about half a second
 * with English and Spanish), shared by every request through a queue (one picture at a time: the
 * machine has few cores, and tesseract already uses one fully), each picture bounded in time,
 * and ended after two idle minutes (an unref'd timer, so it never keeps the process alive) or by
 * stopOcr() at shutdown.
 */

export const OCR_LIMITS = {
  /** The longest one picture may be read for; past it the worker is ended and the picture refused. */
  imageMs: 45_000,
  /** The worker ends after this long without work, giving its memory (about 100 MB) back. */
  idleMs: 120_000,
  /** Pictures waiting their turn at most; more are refused as busy rather than queued for minutes. */
  waiting: 16,
} as const;

export interface OcrOptions {
  /** Called with the share of the picture read so far, 0 to 1, as tesseract reports it. */
  onProgress?: ((done: number) => void) | undefined;
  /** Overrides OCR_LIMITS.imageMs for this picture. */
  timeoutMs?: number | undefined;
}

interface Running {
  worker: Worker;
  folder: string;
}

let running: Promise<Running> | null = null;
/** The queue: each picture starts when the one before it has settled. */
let tail: Promise<unknown> = Promise.resolve();
let waiting = 0;
let idle: NodeJS.Timeout | undefined;
/** Where the worker's progress messages go: the picture being read now. */
let report: ((done: number) => void) | null = null;
/** Stops the picture being read now (shutdown); null when none is. */
let abortCurrent: ((error: OpError) => void) | null = null;
/** Bumped by stopOcr: pictures queued before it are refused instead of starting a new worker. */
let generation = 0;

async function start(): Promise<Running> {
  const folder = await languageFolder();
  try {
    // Loaded with the first worker: most processes never read a picture.
    const { createWorker, OEM } = await import('tesseract.js');
    const worker = await createWorker([...OCR_LANGUAGES], OEM.LSTM_ONLY, {
      langPath: folder,
      gzip: true,
      cacheMethod: 'none',
      logger: (m) => {
        if (m.status === 'recognizing text') report?.(m.progress);
      },
    });
    // tesseract has read the models into its own memory: the unzipped copies tesseract.js wrote
    // to the worker's in-memory file system (about 20 MB for eng+spa) are not read again.
    for (const code of OCR_LANGUAGES) await worker.FS('unlink', [`${code}.traineddata`]);
    return { worker, folder };
  } catch (error) {
    await removeLanguageFolder(folder);
    throw error;
  }
}

function current(): Promise<Running> {
  if (running) return running;
  const started = start();
  running = started;
  started.catch(() => {
    if (running === started) running = null;
  });
  return started;
}

/** Ends the worker, if one runs or is starting, and removes its language folder. */
async function end(): Promise<void> {
  clearTimeout(idle);
  const was = running;
  running = null;
  if (!was) return;
  const r = await was.catch(() => null);
  if (!r) return;
  await r.worker.terminate().catch(() => undefined);
  await removeLanguageFolder(r.folder);
}

/** Whether a worker is running or starting (for tests and the bench). */
export function ocrRunning(): boolean {
  return running !== null;
}

async function readOne(png: Buffer, options: OcrOptions, queuedIn: number): Promise<string> {
  clearTimeout(idle);
  if (queuedIn !== generation) throw new OpError('unavailable', 'errors.statements.ocr_stopped');
  const ms = options.timeoutMs ?? OCR_LIMITS.imageMs;
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    abortCurrent = reject;
    timer = setTimeout(
      () =>
        reject(
          new OpError('too_large', 'errors.statements.ocr_timeout', {
            seconds: Math.ceil(ms / 1000),
          }),
        ),
      ms,
    );
  });
  try {
    const { worker } = await Promise.race([current(), bound]);
    report = options.onProgress ?? null;
    const result = await Promise.race([worker.recognize(png), bound]);
    options.onProgress?.(1);
    return result.data.text;
  } catch (error) {
    // A picture stopped half-way leaves the worker busy with it: end it, the next starts afresh.
    await end();
    if (error instanceof OpError) throw error;
    throw unreadable();
  } finally {
    clearTimeout(timer);
    report = null;
    abortCurrent = null;
    if (running) idle = setTimeout(() => void end(), OCR_LIMITS.idleMs).unref();
  }
}

/**
 * The text tesseract reads in a prepared picture (see prepareImage), in its turn. Refused with
 * a sentence when too many pictures wait, when it runs past its time bound, or when stopOcr()
 * is called before it is done.
 */
export function recognizeText(png: Buffer, options: OcrOptions = {}): Promise<string> {
  if (waiting >= OCR_LIMITS.waiting)
    return Promise.reject(new OpError('rate_limited', 'errors.statements.ocr_busy'));
  waiting++;
  const queuedIn = generation;
  const run = tail.then(() => readOne(png, options, queuedIn));
  tail = run.catch(() => undefined);
  return run.finally(() => {
    waiting--;
  });
}

/**
 * Ends OCR for shutdown: the picture being read and those waiting are refused, the worker thread
 * is terminated and its temp folder removed. Safe to call when OCR never ran; a picture sent
 * afterwards starts a new worker.
 */
export async function stopOcr(): Promise<void> {
  generation++;
  abortCurrent?.(new OpError('unavailable', 'errors.statements.ocr_stopped'));
  await end();
  await tail;
}
