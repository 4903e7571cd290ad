import { fold } from './dates.ts';

/**
 * Words that mark a statement line as not a booked transaction, in the languages we read:
 * pending (not booked yet) and opening/closing balance lines.
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
