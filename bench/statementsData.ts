import {
  generateStatement,
  type GeneratedStatement,
} from '../test/helpers/statements/generator.ts';

/** A 13-month Sparkasse-style CSV statement of exactly 100,000 rows (subscriptions, noise, one-off purchases). */
export function hundredThousandRows(): GeneratedStatement {
  const base = generateStatement(7, { layout: 'sparkasse', months: 13 });
  return generateStatement(7, { layout: 'sparkasse', months: 13, extraRows: 100_000 - base.rows });
}
