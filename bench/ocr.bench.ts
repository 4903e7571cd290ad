import { fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { prepareImage } from '../core/imports/statements/ocr/image.ts';
import { recognizeText, stopOcr } from '../core/imports/statements/ocr/worker.ts';
import { readStatementFile } from '../core/imports/statements/read.ts';
import { phoneScreenshot } from './ocrData.ts';
import { type BenchRow, type BenchSuite, medianMs } from './types.ts';

interface ChildReport {
  maxRssKb: number;
  transactions: number;
}

async function peakInChild(screenshot: Buffer): Promise<ChildReport> {
  const folder = await mkdtemp(join(tmpdir(), 'exhale-ocr-bench-'));
  const files = [join(folder, 'a.png'), join(folder, 'b.png')];
  await writeFile(files[0] ?? '', screenshot);
  await writeFile(files[1] ?? '', await phoneScreenshot(7));
  try {
    return await childReport(files);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

function childReport(files: string[]): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./ocrChild.ts', import.meta.url), files, {
      execArgv: ['--import', 'tsx'],
    });
    child.once('message', (m) => resolve(m as ChildReport)); // the child sends exactly a ChildReport
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`ocr child exited with ${String(code)}`));
    });
  });
}

/** OCR of statement pictures: a phone screenshot read (aim < 8 s), worker start, peak memory (aim < 300 MB). */
export const suite: BenchSuite = {
  name: 'ocr',
  async run(): Promise<BenchRow[]> {
    const screenshot = await phoneScreenshot();
    const prepared = await prepareImage(screenshot, 'png');
    // Worker start: the first picture after stopOcr() pays it, on top of what a warm read takes.
    const starts: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < 3; i++) {
      await stopOcr();
      let t = process.hrtime.bigint();
      await recognizeText(prepared, { timeoutMs: 120_000 });
      const cold = Number(process.hrtime.bigint() - t) / 1e6;
      t = process.hrtime.bigint();
      await recognizeText(prepared, { timeoutMs: 120_000 });
      warm.push(Number(process.hrtime.bigint() - t) / 1e6);
      starts.push(cold - (warm.at(-1) ?? 0));
    }
    // A new picture each run: one read moments ago would be answered from memory (recent.ts).
    const variants = await Promise.all([1, 2, 3, 4, 5, 6].map((v) => phoneScreenshot(v)));
    let transactions = 0;
    const read = await medianMs(
      async () => {
        transactions = (await readStatementFile(variants.pop() ?? screenshot)).transactions.length;
      },
      5,
      1,
    );
    const prepare = await medianMs(() => prepareImage(screenshot, 'png'), 5, 1);
    await stopOcr();
    const peak = await peakInChild(screenshot);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
    return [
      {
        name: 'phone screenshot 1170×2532 read (worker warm)',
        median: read,
        unit: 'ms',
        note: `dark theme, ${transactions} of 24 transactions read; sharp + tesseract eng+spa + line reader (aim < 8000 ms)`,
      },
      { name: '  sharp preparation alone', median: prepare, unit: 'ms' },
      {
        name: 'OCR worker start (eng+spa)',
        median: median(starts),
        unit: 'ms',
        note: 'first picture after stopOcr() less a warm one: language copy, thread, WebAssembly, data',
      },
      {
        name: '  peak memory (own process)',
        median: peak.maxRssKb / 1024,
        unit: 'MB',
        note: `maxRSS of a child reading two screenshot files, node, tsx and the worker included; ${peak.transactions} transactions (aim < 300 MB)`,
      },
    ];
  },
};
