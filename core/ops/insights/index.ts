import { findSavings } from './findSavings.ts';
import { getContext } from './getContext.ts';
import { getTotals } from './getTotals.ts';
import { getUpcoming } from './getUpcoming.ts';
import { listExchangeRates } from './listExchangeRates.ts';
import { setExchangeRate } from './setExchangeRate.ts';

/** Totals, upcoming charges, savings, the live briefing and exchange rates. */
export const insightsOps = [
  getContext,
  getTotals,
  getUpcoming,
  findSavings,
  listExchangeRates,
  setExchangeRate,
] as const;
