import { detectSubscriptions } from '../core/imports/statements/detect.ts';
import { readStatementFile } from '../core/imports/statements/read.ts';
import { hundredThousandRows } from './statementsData.ts';

/**
 * Child process of statements.bench.ts: reads and detects the 100,000-row statement once, in a
 * process of its own, and reports its peak resident memory (the OS's maxRSS, so a short peak counts).
 */
const bytes = Buffer.from(hundredThousandRows().text, 'utf8');
const read = await readStatementFile(bytes);
const found = detectSubscriptions(read.transactions);
process.send?.({
  maxRssKb: process.resourceUsage().maxRSS,
  transactions: read.transactions.length,
  candidates: found.length,
});
