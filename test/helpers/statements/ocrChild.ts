import { stopOcr } from '../../../core/imports/statements/ocr/worker.ts';
import { readStatementFile } from '../../../core/imports/statements/read.ts';
import { statementPicture } from './pictures.ts';

/**
 * A process that reads one picture, calls stopOcr() and then simply returns: it exits on its own
 * only if OCR left no handle behind (worker thread, timer). It prints the transactions it read.
 */
const photo = await statementPicture(['STATEMENT 30 NOV 2025', '03 NOV  NETFLIX.COM  -15.99']);
const read = await readStatementFile(photo);
await stopOcr();
process.stdout.write(`${read.transactions.length}\n`);
