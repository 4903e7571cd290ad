/**
 * What every statement reader (CSV, OFX, PDF text, OCR text) produces: booked
 * transactions in one shape, so detection never knows which format a statement came in.
 */

/** Amounts are integers in ten-thousandths of the currency's unit (4 decimals: enough for any
 * bank's 3-decimal amounts and FX lines), never floats; negative is money out. */
export const AMOUNT_SCALE = 10_000;

export interface StatementTransaction {
  /** Booking date, YYYY-MM-DD. */
  date: string;
  /** Who was paid, when the statement names it apart from the text (payee, counterparty). */
  payee: string | null;
  /** Everything else the line says (memo, reference), joined with spaces. */
  memo: string;
  /** Signed, in ten-thousandths (see AMOUNT_SCALE): -159900 is 15.99 out. */
  amount: number;
  /** ISO 4217 code, or null when the statement does not say. */
  currency: string | null;
  /** The account it belongs to, when a statement holds several (OFX). */
  account: string | null;
}

/** `image`: read by OCR, from a photo, a screenshot or a scanned PDF. */
export type StatementFormat = 'csv' | 'ofx' | 'pdf' | 'text' | 'image';

export interface ReadStatement {
  format: StatementFormat;
  transactions: StatementTransaction[];
  /** Rows seen but left out: pending (not booked yet), opening/closing balances, unreadable rows. */
  skipped: { pending: number; balance: number; unreadable: number };
  /** The currency the statement as a whole is in, when it says so once (an OFX CURDEF, a header). */
  currency: string | null;
  /**
   * A sign several currencies share ("$") that the amounts carry when nothing in the statement
   * says which currency it is: the op then uses the currency it was told, or the household's when
   * that one uses the sign, and otherwise asks rather than guess.
   */
  sharedSymbol?: string;
  /**
   * The statement's own cards or accounts as a CSV names them in a column of their own (a card
   * number, an account number or IBAN), distinct; an OFX names each transaction's in `account`.
   */
  accounts?: string[];
}
