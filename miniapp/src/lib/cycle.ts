import { t } from './i18n.ts';
import type { Subscription } from './types.ts';

/** "a month", "every 3 months", "a year" in the reader's language. */
export function cycleText(cycle: Subscription['cycle']): string {
  if (cycle.every === 1) return t(`cycle.one.${cycle.unit}`);
  return t(`cycle.many.${cycle.unit}`, { n: cycle.every });
}

/** A unit as the cycle picker shows it after its "Every" field: "month" after 1, "months" after 3. */
export function unitLabel(unit: Subscription['cycle']['unit'], every: string): string {
  return every.trim() === '1' ? t(`polish.unit_one.${unit}`) : t(`unit.${unit}`);
}
