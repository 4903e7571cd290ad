import { fork } from 'node:child_process';

import { detectSubscriptions } from '../core/imports/statements/detect.ts';
import { readStatementFile } from '../core/imports/statements/read.ts';
import { scoreDetection } from '../test/helpers/statements/evaluate.ts';
import { hundredThousandRows } from './statementsData.ts';
import { type BenchRow, type BenchSuite, medianMs } from './types.ts';

interface ChildReport {
  maxRssKb: number;
  transactions: number;
  candidates: number;
}

function peakInChild(): Promise<ChildReport> {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./statementsChild.ts', import.meta.url), [], {
      execArgv: ['--import', 'tsx'],
    });
    child.once('message', (m) => resolve(m as ChildReport)); // the child sends exactly a ChildReport
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) reject(new Error(`statements child exited with ${String(code)}`));
    });
  });
}

/** Reading statements: a 100,000-row CSV read and detected (aim < 1 s, peak memory < 300 MB), and detection quality. */
export const suite: BenchSuite = {
  name: 'statements',
  async run(): Promise<BenchRow[]> {
    const statement = hundredThousandRows();
    const bytes = Buffer.from(statement.text, 'utf8');
    let transactions = 0;
    let candidates = 0;
    const readAndDetect = async () => {
      const read = await readStatementFile(bytes);
      transactions = read.transactions.length;
      candidates = detectSubscriptions(read.transactions).length;
    };
    const ms = await medianMs(readAndDetect, 5, 1);
    const readOnly = await medianMs(() => readStatementFile(bytes), 5, 1);
    const peak = await peakInChild();
    const score = scoreDetection(500);
    return [
      {
        name: '100,000-row CSV read + detected',
        median: ms,
        unit: 'ms',
        note: `${(bytes.length / 1024 / 1024).toFixed(1)} MB, ${transactions} transactions, ${candidates} candidates (aim < 1000 ms)`,
      },
      { name: '  reading alone', median: readOnly, unit: 'ms' },
      {
        name: '  peak memory (own process)',
        median: peak.maxRssKb / 1024,
        unit: 'MB',
        note: `maxRSS of a child doing it once, node and tsx included (aim < 300 MB)`,
      },
      {
        name: 'detection on 500 generated statements',
        median: score.precision * 1000,
        unit: '‰ precision',
        note: `precision ${score.precision.toFixed(4)}, recall ${score.recall.toFixed(4)} (${score.truePositives} found, ${score.falsePositives} wrong, ${score.falseNegatives} missed; aim ≥ 0.95 / ≥ 0.90)`,
      },
    ];
  },
};
