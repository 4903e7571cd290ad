import { readFile } from 'node:fs/promises';

import { stopOcr } from '../core/imports/statements/ocr/worker.ts';
import { readStatementFile } from '../core/imports/statements/read.ts';

/**
 * Child process of ocr.bench.ts: reads the two screenshot files it is given (worker start, then
 * warm) in a process of its own and reports its peak resident memory (maxRSS: the process and its
 * tesseract worker thread, whose WebAssembly memory is in the same process). The picture is
 * rendered by the parent, so the child holds only what reading a received picture costs.
 */
const screenshot = await readFile(process.argv[2] ?? '');
let transactions = 0;
for (let i = 0; i < 2; i++)
  transactions = (await readStatementFile(screenshot)).transactions.length;
await stopOcr();
process.send?.({ maxRssKb: process.resourceUsage().maxRSS, transactions });
