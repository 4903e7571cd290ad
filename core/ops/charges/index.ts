import { listCharges } from './listCharges.ts';
import { listPriceChanges } from './listPriceChanges.ts';
import { markChargePaid } from './markChargePaid.ts';
import { markChargesPaid } from './markChargesPaid.ts';
import { skipCharge } from './skipCharge.ts';

/** Charges: what each subscription's series expects, what was paid or skipped, and price changes. */
export const chargeOps = [
  listCharges,
  markChargePaid,
  markChargesPaid,
  skipCharge,
  listPriceChanges,
] as const;
