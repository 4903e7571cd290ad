import { t } from './i18n.ts';
import type { Subscription } from './types.ts';

/** "a month", "every 3 months", "a year" in the reader's language. */
export function cycleText(cycle: Subscription['cycle']): string {
  if (cycle.every === 1) return t(`cycle.one.${cycle.unit}`);
  return t(`cycle.many.${cycle.unit}`, { n: cycle.every });
}
