/** Totals, upcoming charges, savings, the live briefing and exchange rates. */
export const insightsOps = [] as const;
