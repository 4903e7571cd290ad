import { fold } from './dates.ts';

/**
 * Words that mark a statement line as not a booked transaction, in the languages we read:
 * pending (not booked yet) and opening/closing balance lines; and the words of a bank's own
 * charges (fees, interest), which are booked but are never a subscription of the household.
 */

const PENDING =
  /\b(pending|vorgemerkt|pendiente|en attente|in behandeling|in afwachting|reserviert|prenotato|pendente|autorizacion|authori[sz]ation)\b/;
const BALANCE =
  /\b(saldo (iniziale|finale|inicial|final|anterior|precedente|vorheriger|alt|neu)|opening balance|closing balance|previous balance|new balance|saldo letzte abrechnung|neuer saldo|alter saldo|last month.?s balance|balance (brought|carried) forward|anfangssaldo|endsaldo|kontostand (alt|neu)|solde (initial|final|precedent|nouveau|crediteur|debiteur)|nouveau solde|ancien solde|likutis|apyvarta|beginsaldo|eindsaldo|nieuw saldo|oud saldo)\b/;

/** Lower case first (cheap); accents folded only for text that has any (NFD is costly per row). */
function matches(pattern: RegExp, text: string): boolean {
  const lower = text.toLowerCase();
  if (pattern.test(lower)) return true;
  return /[\u0080-\uffff]/.test(text) && pattern.test(fold(text));
}

export function isPendingText(text: string): boolean {
  // A date or an amount is never a pending mark.
  return text !== '' && !/^\s*[\d+-]/.test(text) && matches(PENDING, text);
}

export function isBalanceLine(text: string): boolean {
  return matches(BALANCE, text);
}

/**
 * A printed statement's summary row rather than a transaction: "Fees Charged  +  $0.00" (its
 * label followed by the operator of the sum, with a due date at the start of the line) or a
 * total. Only for text read from lines (PDF, OCR): a CSV's cells say what they are.
 */
const SUMMARY =
  /(^|\s)[+\-=]$|^(total|totals|totale|gesamt|summe|suma|somme|subtotal|sub-total)\s*:?$|\b(total activity|minimum payment|payment due|new charges|purchases and adjustments|balance transfers|cash advances|available credit|credit line)\b/;

export function isSummaryLine(description: string): boolean {
  return matches(SUMMARY, description.trim());
}

/**
 * A row that is a total, whatever the format: its whole text is the word ("TOTAL", "Summe:",
 * "Total debits"), so a merchant named Total Energies is not one. A CSV's total row carries a
 * date and amounts like a transaction.
 */
const TOTAL =
  /^(total|totals|totale|totales|gesamt|gesamtsumme|summe|suma|somme|subtotal|sub-total|totaal|total (debits?|credits?|amount|activity|movements|movimientos)|total cargos|total abonos)\s*:?$/;

export function isTotalText(text: string): boolean {
  return matches(TOTAL, text.trim());
}

/**
 * The bank's own charges and credits, not a merchant's: account and card fees, interest,
 * commissions. A monthly account fee repeats like a subscription, but it is the bank's price of
 * the account, not something the household subscribed to: detection leaves them out.
 */
const BANK_CHARGE =
  /\b((account|card|maintenance|service|overdraft|atm|foreign|foreign transaction|transaction|late|late payment|returned payment|wire|transfer|bank|monthly account|monthly maintenance|monthly service) (fees?|charges?)|fees? charged|interest|finance charge|overdraft|comision(es)?|intereses|gebuhren?|kontofuhrung\w*|kartengebuhr\w*|kontoentgelt|verwahrentgelt|entgelt|zinsen|sollzinsen|habenzinsen|frais|agios?|interets|cotisation|rente|commissioni|interessi|canone conto|kosten (rekening|betaalrekening|pakket))\b/;

export function isBankChargeText(text: string): boolean {
  return matches(BANK_CHARGE, text);
}

/**
 * The bank's own mark that a card payment repeats ("T-MOBILE RECURNG PMT", "VERIZON RECURRING
 * PMT", a "Dauerauftrag"-free "wiederkehrende Zahlung", "pago recurrente"): the merchant set up a
 * recurring charge, so even seen once it is as likely a subscription as a known service is.
 */
const RECURRING_MARK =
  /\b(recurng|recurring (pmt|pymt|payment|charge|debit)|recurring|recurrent payment|wiederkehrende zahlung|pago recurrente|cargo recurrente|paiement recurrent|prelevement recurrent)\b/;

export function isMarkedRecurring(text: string): boolean {
  return matches(RECURRING_MARK, text);
}
