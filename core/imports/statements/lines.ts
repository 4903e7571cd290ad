import { type DecimalMark, parseAmount } from './amounts.ts';
import { type DateOrder, dateOrderOf, fold, monthOfName, parseDate } from './dates.ts';
import { isBalanceLine, isSummaryLine } from './lineWords.ts';
import { mostCommon } from './csv.ts';
import type { ReadStatement, StatementTransaction } from './types.ts';

/**
 * Reads transactions from the text lines of a statement: text extracted from a PDF (see pdf.ts),
 * pdftotext output, or OCR text of a photo (cleaned first by ocr/clean.ts). A transaction line starts with a date (with
 * or without its year, "21 feb", "06.01.", "05/07"), may carry a second date (booking and value
 * date), and ends with an amount, optionally followed by a sign word ("Af"/"Bij", "CR"/"DR", "-").
 * Lines below it without a date continue its description. A year left out is the statement's:
 * the latest full date in the text, a month after it meaning the year before. Money in or out:
 * a sign or sign word says so; else, in laid-out text, the amount's column under a "Credit" or
 * "Debit" heading; else the statement's habit: on one that prints no plus sign and mostly
 * unsigned amounts (a card's purchases), a minus is money in (a refund, a payment); on one whose
 * debits carry a minus ("-8,99") and nothing a plus, an unsigned amount is money in (German and
 * Dutch bank statements print credits so); otherwise an unsigned amount is money out (statements
 * list spending) unless its text starts with a bank's word for a credit ("Gutschrift", "Abono").
 */

const CURRENCY_WORD = /^(EUR|USD|GBP|CHF|SEK|NOK|DKK|PLN|CZK|HUF|ZAR|CAD|AUD|SGD|€|\$|£)$/;
const AMOUNT_AT_END =
  /(?:^|\s)(\([\d.,']+[.,]\d{2}\)|[-+]?(?:€|\$|£|EUR|USD|GBP)?\s?[-+]?\d{1,3}(?:[.,'\u00a0 ]\d{3})*[.,]\d{2}|[-+]?\d+[.,]\d{2})(?:\s*(-|\+|CR|DR|Cr|Dr|Af|Bij|AF|BIJ|H|S))?\s*$/;
const DATE_AT_START =
  /^\s*(\d{4}-\d{2}-\d{2}|\d{1,2}\s*[./-]\s*\d{1,2}(?:[./-]\d{2,4})?\.?|\d{1,2}\.?\s+[A-Za-zéûäö]{3,9}\.?(?:\s+\d{4})?)(?=\s)/;
const CREDIT_WORDS =
  /\b(cr[ée]dit|credit|gutschrift|haben|bij|deposits?|paid in|money in|abono|haber|accrediti|entrate)\b/i;
/**
 * A line that starts a new part of a statement ("NEW TRANSACTIONS", a table's column headings),
 * so it never continues the description of the transaction above it.
 */
const SECTION_WORDS =
  /^(new |card )?(transactions?|payments?|credits?|debits?|purchases|fees|interest|(post|posting|trans|transaction|value|booking) date|date|description|amount|reference|page \d|umsatze|buchungen|operations|movimientos)\b/i;
/**
 * A booking text that names a credit, at its start ("Gutschrift Gehalt", "Abono nómina",
 * "Payment received"): money in even when the amount is unsigned. Narrower than CREDIT_WORDS
 * (headings), since "Credit card payment" on a current account is money out.
 */
const CREDIT_BOOKING =
  /^(gutschrift|sepa-gutschrift|lohn\/gehalt|abono|ingreso|bonifico a (vostro|suo) favore|virement recu|credit transfer|payment received|deposit|bijschrijving)\b/i;
const DEBIT_WORDS =
  /\b(d[ée]bit|debit|belastung|soll|af|withdrawals?|paid out|money out|cargo|debe|addebiti|uscite)\b/i;

interface Heading {
  credit: number;
  debit: number;
}

function statementDate(text: string, order: DateOrder): string | null {
  let latest: string | null = null;
  const full =
    /\b(\d{1,2}[./-]\d{1,2}[./-]\d{4}|\d{4}-\d{2}-\d{2}|\d{1,2}\s+[A-Za-zéû]{3,9}\s+\d{4}|[A-Z][a-z]{2,8}\s+\d{1,2},\s+\d{4})\b/g;
  for (const m of text.matchAll(full)) {
    const d = parseDate(m[1] ?? '', order);
    if (d && (!latest || d > latest)) latest = d;
  }
  return latest;
}

/** The date cell with the statement's year filled in when it has none. */
function dateWithYear(raw: string, anchor: string | null, order: DateOrder): string | null {
  // "07  /  07": text extraction spreads some dates out.
  const cell = raw.replace(/\s*([./-])\s*/g, '$1');
  const full = parseDate(cell, order);
  if (full) return full;
  if (!anchor) return null;
  const year = Number(anchor.slice(0, 4));
  const anchorMonth = Number(anchor.slice(5, 7));
  let day: number;
  let month: number | null;
  const numeric = /^(\d{1,2})[./-](\d{1,2})\.?$/.exec(cell.trim());
  if (numeric) {
    day = Number(order === 'dmy' ? numeric[1] : numeric[2]);
    month = Number(order === 'dmy' ? numeric[2] : numeric[1]);
  } else {
    const named = /^(\d{1,2})\.?\s+([\p{L}]{3,9})\.?$/u.exec(cell.trim());
    if (!named) return null;
    day = Number(named[1]);
    month = monthOfName(named[2] ?? '');
  }
  if (!month || month > 12) return null;
  const y = month > anchorMonth + 1 ? year - 1 : year;
  return parseDate(`${String(day).padStart(2, '0')}.${String(month).padStart(2, '0')}.${y}`, 'dmy');
}

export function readLines(text: string, format: 'pdf' | 'text' | 'image' = 'text'): ReadStatement {
  const out: ReadStatement = {
    format,
    transactions: [],
    skipped: { pending: 0, balance: 0, unreadable: 0 },
    currency: null,
  };
  // Day or month first, decided from the dates that start lines, as for a CSV column.
  const order = dateOrderOf(
    text.split(/\r\n|\r|\n/).flatMap((l) => {
      const m = DATE_AT_START.exec(l)?.[1];
      return m ? [/^\d{1,2}[./-]\d{1,2}\.?$/.test(m) ? `${m.replace(/\.$/, '')}/2000` : m] : [];
    }),
  );
  const anchor = statementDate(text, order);
  // The decimal mark of the amounts that end lines (dates like 22.01.21 would mislead a count over the whole text).
  let commas = 0;
  let points = 0;
  for (const line of text.split(/\r\n|\r|\n/)) {
    const m = AMOUNT_AT_END.exec(line)?.[1] ?? '';
    if (/,\d{2}\)?$/.test(m)) commas++;
    else if (/\.\d{2}\)?$/.test(m)) points++;
  }
  const mark: DecimalMark = commas > points ? ',' : '.';
  let currency = mostCommon(
    (text.match(/\b(EUR|USD|GBP|CHF|SEK|PLN|CZK|HUF|SGD|CAD|AUD)\b|[€£]/g) ?? []).map((c) =>
      c === '€' ? 'EUR' : c === '£' ? 'GBP' : c,
    ),
  );
  // "$8,385.00" alone: the dollar of the US when dates are month first (no other dollar country
  // writes them so), else a sign the op must ask about (see ReadStatement.sharedSymbol).
  const dollars = currency === null && /(?:^|[\s(+\-−])\$\s?\d/m.test(text);
  if (dollars && order === 'mdy') currency = 'USD';
  else if (dollars) out.sharedSymbol = '$';
  // A card statement prints purchases unsigned and credits (refunds, payments) with a minus:
  // with no plus sign anywhere and unsigned amounts the most, a minus is money in.
  let plus = 0;
  let minus = 0;
  let unsigned = 0;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (!DATE_AT_START.test(line)) continue;
    const m = AMOUNT_AT_END.exec(line);
    if (!m) continue;
    const raw = (m[1] ?? '').replace(/[€$£\s]|EUR|USD|GBP/g, '');
    const word = fold(m[2] ?? '');
    if (raw.startsWith('+') || raw.startsWith('(') || ['+', 'cr', 'bij', 'h'].includes(word))
      plus++;
    else if (raw.startsWith('-') || ['-', 'dr', 'af', 's'].includes(word)) minus++;
    else unsigned++;
  }
  const minusIsCredit = plus === 0 && minus > 0 && unsigned > minus;
  // Debits printed with a minus and credits without a sign ("-8,99" and "2.980,00").
  const unsignedIsCredit = plus === 0 && minus > 0 && !minusIsCredit;
  let heading: Heading | null = null;
  let last: StatementTransaction | null = null;
  let continuation = 0;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line.trim() === '') {
      last = null;
      continue;
    }
    const credit = CREDIT_WORDS.exec(line);
    const debit = DEBIT_WORDS.exec(line);
    if (credit && debit && !DATE_AT_START.test(line)) {
      heading = { credit: credit.index + credit[0].length, debit: debit.index + debit[0].length };
      continue;
    }
    const date = DATE_AT_START.exec(line);
    const amount = AMOUNT_AT_END.exec(line);
    if (!date || !amount) {
      // A line of text right under a transaction continues its description (two lines at most).
      if (last && !amount && continuation < 2 && !SECTION_WORDS.test(line.trim())) {
        last.memo = `${last.memo} ${line.trim()}`.trim();
        continuation++;
      } else last = null;
      continue;
    }
    const when = dateWithYear(date[1] ?? '', anchor, order);
    const value = parseAmount((amount[1] ?? '').replace(/[€$£]|EUR|USD|GBP/g, ''), mark);
    if (!when || value === null) {
      last = null;
      continue;
    }
    let rest = line.slice(date.index + date[0].length, amount.index).trim();
    // A second date (booking or value date) right after the first.
    const second = DATE_AT_START.exec(rest);
    if (second && dateWithYear(second[1] ?? '', anchor, order))
      rest = rest.slice(second[0].length).trim();
    const words = rest.split(/\s{2,}/).filter((w) => w !== '' && !CURRENCY_WORD.test(w));
    const description = words.join(' ');
    if (isBalanceLine(description) || isSummaryLine(description)) {
      out.skipped.balance++;
      last = null;
      continue;
    }
    const signWord = fold(amount[2] ?? '');
    const end = amount.index + amount[0].trimEnd().length;
    let sign: 1 | -1 = -1;
    // "(412.16)": the accounting way of writing the other direction, a payment on a card statement.
    if ((amount[1] ?? '').startsWith('(')) sign = 1;
    else if (value < 0 && minusIsCredit) sign = 1;
    else if (value < 0 || ['-', 'dr', 'af', 's'].includes(signWord)) sign = -1;
    else if ((amount[1] ?? '').startsWith('+') || ['+', 'cr', 'bij', 'h'].includes(signWord))
      sign = 1;
    else if (heading) {
      if (Math.abs(end - heading.credit) < Math.abs(end - heading.debit)) sign = 1;
    } else if (unsignedIsCredit || CREDIT_BOOKING.test(fold(description))) sign = 1;
    last = {
      date: when,
      payee: null,
      memo: description,
      amount: sign * Math.abs(value),
      currency,
      account: null,
    };
    continuation = 0;
    out.transactions.push(last);
  }
  out.currency = currency;
  return out;
}
