import { readCsv } from '../../../core/imports/statements/csv.ts';
import { detectSubscriptions } from '../../../core/imports/statements/detect.ts';
import { merchantKey } from '../../../core/imports/statements/merchant.ts';
import { generateStatement } from './generator.ts';

export interface DetectionScore {
  statements: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  precision: number;
  recall: number;
  misses: string[];
  wrong: string[];
}

/**
 * Precision and recall of detection over `count` generated statements (seeds 1..count): a
 * candidate is right when its merchant key is the subscription's and its cycle is the same.
 */
export function scoreDetection(count: number): DetectionScore {
  let tp = 0;
  let fp = 0;
  let fn = 0;
  const misses: string[] = [];
  const wrong: string[] = [];
  for (let seed = 1; seed <= count; seed++) {
    const s = generateStatement(seed);
    const found = detectSubscriptions(readCsv(s.text).transactions);
    const matched = new Set<number>();
    for (const t of s.truth) {
      const key = merchantKey(t.raw);
      const i = found.findIndex(
        (f, k) =>
          !matched.has(k) &&
          (f.key === key || f.key.startsWith(`${key} `)) &&
          f.cycle.unit === t.cycle.unit &&
          f.cycle.every === t.cycle.every,
      );
      if (i >= 0) {
        matched.add(i);
        tp++;
      } else {
        fn++;
        misses.push(
          `seed ${seed} ${s.layout}: ${key} every ${t.cycle.every} ${t.cycle.unit} (${t.charges} charges)`,
        );
      }
    }
    found.forEach((f, k) => {
      if (matched.has(k)) return;
      fp++;
      wrong.push(
        `seed ${seed} ${s.layout}: ${f.key} every ${f.cycle.every} ${f.cycle.unit} (${f.charges.length} charges)`,
      );
    });
  }
  return {
    statements: count,
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    precision: tp / Math.max(1, tp + fp),
    recall: tp / Math.max(1, tp + fn),
    misses,
    wrong,
  };
}
