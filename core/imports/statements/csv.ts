import Papa from 'papaparse';

import { isCurrency } from '../../domain/currencies.ts';
import { currencyOfSymbol } from '../currencySymbols.ts';
import { type DecimalMark, decimalMarkOf, looksLikeAmount, parseAmount } from './amounts.ts';
import { type DateOrder, dateOrderOf, fold, parseDate } from './dates.ts';
import { currencyOfHeader, type Role, roleOfHeader } from './headers.ts';
import { isBalanceLine, isPendingText, isTotalText } from './lineWords.ts';
import type { ReadStatement, StatementTransaction } from './types.ts';

/**
 * Reads a bank's CSV export, whatever the bank: the delimiter is the one that splits the first
 * lines most evenly, papaparse splits records (quotes, embedded line breaks, CR/LF/CRLF, ragged
 * rows), the header is the first row that names a date and an amount column in a language we
 * know (lines above it are a preamble), and without one the columns are found by their content.
 * Amounts are signed, or split into debit and credit columns, or unsigned with a C/D flag column;
 * an unsigned amount without a flag is money out (card exports list purchases unsigned).
 */

const DELIMITERS = [',', ';', '\t', '|'] as const;

/** Rows read to tell columns apart. */
const SAMPLE = 2000;
/** Distinct accounts kept of a statement's account column (a statement is of one or a few). */
const MAX_ACCOUNTS = 20;

/** Occurrences of `d` outside double quotes in one line. */
function countOutsideQuotes(line: string, d: string): number {
  let inQuotes = false;
  let n = 0;
  for (const ch of line) {
    if (ch === '"') inQuotes = !inQuotes;
    else if (ch === d && !inQuotes) n++;
  }
  return n;
}

/** The delimiter whose count per line is the same on the most of the first lines. */
export function detectDelimiter(text: string): string {
  const lines = text
    .slice(0, 65_536)
    .split(/\r\n|\r|\n/)
    .filter((l) => l.trim() !== '')
    .slice(0, 60);
  let best: string = ',';
  let bestScore = -1;
  for (const d of DELIMITERS) {
    const counts = new Map<number, number>();
    for (const line of lines) {
      const c = countOutsideQuotes(line, d);
      if (c > 0) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
    // Lines holding it first (a decimal comma is missing from the header line), then how many share one count.
    const present = [...counts.values()].reduce((a, b) => a + b, 0);
    let score = 0;
    for (const [count, lineCount] of counts)
      score = Math.max(score, present * 10_000 + lineCount * 100 + Math.min(count, 99));
    if (score > bestScore) {
      bestScore = score;
      best = d;
    }
  }
  return best;
}

/**
 * The file's records, split by papaparse: quotes, doubled quotes, line breaks inside quotes,
 * CR, LF or CRLF. (csv-parse was the first choice; on a 100,000-row statement it took 2.7 s where
 * papaparse takes 0.2 s, and reading must stay under a second.)
 */
function records(text: string, delimiter: string): string[][] {
  const body = text.replace(/^\uFEFF/, '');
  const parsed = Papa.parse<string[]>(body, { delimiter, skipEmptyLines: true });
  if (!parsed.errors.some((e) => e.type === 'Quotes')) return parsed.data;
  // A quote left open swallows the rest of the file: read it again with quotes as plain text.
  const plain = Papa.parse<string[]>(body, {
    delimiter,
    skipEmptyLines: true,
    quoteChar: '\u0000',
  });
  return plain.data.map((r) => r.map((c) => c.replace(/^"|"$/g, '').replace(/""/g, '"')));
}

interface Columns {
  date: number;
  amount: number | null;
  debit: number | null;
  credit: number | null;
  flag: number | null;
  currency: number | null;
  status: number | null;
  /** The statement's own card or account. */
  account: number | null;
  payee: number | null;
  /** Who paid, when the statement names both sides: the other party of money in. */
  payer: number | null;
  memo: number[];
  /** The currency the header names ("Betrag (EUR)"). */
  headerCurrency: string | null;
}

const FLAG_OUT = new Set([
  'd',
  'dr',
  'debit',
  'deb',
  'debet',
  'af',
  'o',
  'out',
  'outflow',
  's',
  'soll',
  'kiadas',
]);
const FLAG_IN = new Set([
  'c',
  'cr',
  'credit',
  'k',
  'bij',
  'i',
  'in',
  'inflow',
  'h',
  'haben',
  'bevetel',
]);

function flagSign(cell: string): -1 | 1 | null {
  const f = fold(cell.trim());
  if (FLAG_OUT.has(f)) return -1;
  if (FLAG_IN.has(f)) return 1;
  return null;
}

const nonEmpty = (values: readonly string[]) => values.filter((v) => v.trim() !== '');
/** Share of the non-empty cells satisfying `test` (0 when all are empty). */
function share(values: readonly string[], test: (v: string) => boolean): number {
  const cells = nonEmpty(values);
  return cells.length === 0 ? 0 : cells.filter(test).length / cells.length;
}
const isDateCell = (v: string) => parseDate(v, 'dmy') !== null || parseDate(v, 'mdy') !== null;
const isIso = (v: string) => /^[A-Z]{3}$/.test(v.trim()) && isCurrency(v.trim());

function column(rows: readonly string[][], index: number): string[] {
  return rows.map((r) => r[index] ?? '');
}

/** The header row: the first of the best-scoring rows among the first 40, or null. */
function findHeader(rows: readonly string[][]): number | null {
  let best: number | null = null;
  let bestScore = 1;
  rows.slice(0, 40).forEach((row, i) => {
    const roles = new Set(
      row
        .map((c) => roleOfHeader(c)?.role)
        .filter((r): r is Role => r !== undefined && r !== 'ignore'),
    );
    const money = roles.has('amount') || roles.has('debit') || roles.has('credit');
    const score = roles.size + (money ? 1 : 0);
    if (roles.has('date') && money && score > bestScore) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}

function fromHeader(header: readonly string[], data: readonly string[][]): Columns | null {
  const byRole = new Map<Role, Array<{ index: number; rank: number }>>();
  header.forEach((cell, index) => {
    const r = roleOfHeader(cell);
    if (!r) return;
    const list = byRole.get(r.role) ?? [];
    list.push({ index, rank: r.rank });
    byRole.set(r.role, list);
  });
  const ranked = (role: Role) =>
    [...(byRole.get(role) ?? [])].sort((a, b) => a.rank - b.rank || a.index - b.index);
  const pick = (role: Role, test: (v: string) => boolean, min: number) =>
    ranked(role).find((c) => share(column(data, c.index), test) >= min)?.index ?? null;

  const date = pick('date', (v) => isDateCell(v) || isPendingText(v), 0.5);
  if (date === null) return null;
  const amount = pick('amount', looksLikeAmount, 0.6);
  const debit = pick('debit', looksLikeAmount, 0.6);
  const credit = pick('credit', looksLikeAmount, 0.6);
  if (amount === null && debit === null && credit === null) return null;
  const isFlag = (v: string) => flagSign(v) !== null;
  // A flag or currency column the header does not name is found by its cells, among the columns
  // the header names nothing: N26's "Original Currency" holds codes too, of another amount.
  const unnamed = (i: number) => roleOfHeader(header[i] ?? '') === null;
  const flag =
    pick('flag', isFlag, 0.9) ??
    header.findIndex(
      (_, i) =>
        i !== date &&
        unnamed(i) &&
        nonEmpty(column(data, i)).length > 0 &&
        share(column(data, i), isFlag) >= 0.95,
    );
  const currency =
    pick('currency', isIso, 0.8) ??
    header.findIndex(
      (_, i) =>
        unnamed(i) && nonEmpty(column(data, i)).length > 0 && share(column(data, i), isIso) >= 0.95,
    );
  const memo = ranked('memo')
    .map((c) => c.index)
    .sort((a, b) => a - b)
    .slice(0, 3);
  const money = amount ?? debit ?? credit;
  const named = money === null ? null : currencyOfHeader(header[money] ?? '');
  return {
    date,
    amount,
    debit: amount === null ? debit : null,
    credit: amount === null ? credit : null,
    flag: flag === -1 || flag === null ? null : flag,
    currency: currency === -1 || currency === null ? null : currency,
    status: ranked('status')[0]?.index ?? null,
    account: ranked('account')[0]?.index ?? null,
    payee: ranked('payee')[0]?.index ?? null,
    payer: ranked('payer')[0]?.index ?? null,
    memo,
    headerCurrency: named !== null && isCurrency(named) ? named : null,
  };
}

/** Columns of a file without a header, from what their cells look like. */
function fromContent(data: readonly string[][]): Columns | null {
  const width = Math.max(0, ...data.map((r) => r.length));
  const cols = Array.from({ length: width }, (_, i) => column(data, i));
  const filled = (i: number) => nonEmpty(cols[i] ?? []).length / Math.max(1, data.length);
  const date = cols.findIndex(
    (c) => share(c, isDateCell) >= 0.8 && nonEmpty(c).length >= data.length * 0.5,
  );
  if (date === -1) return null;
  const money = cols
    .map((c, i) => ({ i, c }))
    .filter(
      ({ c, i }) =>
        i !== date &&
        share(c, looksLikeAmount) >= 0.9 &&
        share(c, isDateCell) < 0.5 &&
        nonEmpty(c).length > 0,
    )
    // Ids and account numbers are long digit runs without a decimal mark.
    .filter(
      ({ c }) =>
        share(c, (v) => /[.,]\d{1,3}\s*$/.test(v.trim()) || /^[+-]?\d{1,4}$/.test(v.trim())) >= 0.9,
    );
  // Two amount columns filled in turn are debit and credit; otherwise a signed column beats an unsigned one.
  const pair = money.find((a, k) => {
    const b = money[k + 1];
    return (
      b !== undefined &&
      b.i === a.i + 1 &&
      data.every((r) => (r[a.i] ?? '').trim() === '' || (r[b.i] ?? '').trim() === '')
    );
  });
  const signed = money.filter(({ c }) => c.some((v) => /^\s*[-−(]|-\s*$/.test(v)));
  const amount = pair ? null : ((signed.at(-1) ?? money.at(-1))?.i ?? null);
  if (amount === null && !pair) return null;
  const isFlag = (v: string) => flagSign(v) !== null;
  const flag = cols.findIndex((c, i) => i !== date && filled(i) > 0.5 && share(c, isFlag) >= 0.95);
  const currency = cols.findIndex((c, i) => filled(i) > 0.5 && share(c, isIso) >= 0.95);
  const taken = new Set([date, amount, pair?.i, pair ? pair.i + 1 : -1, flag, currency]);
  const text = cols
    .map((c, i) => ({
      i,
      len: nonEmpty(c).reduce((s, v) => s + v.trim().length, 0) / Math.max(1, data.length),
    }))
    .filter(
      ({ i }) =>
        !taken.has(i) && share(cols[i] ?? [], (v) => isDateCell(v) || looksLikeAmount(v)) < 0.5,
    )
    .sort((a, b) => b.len - a.len);
  return {
    date,
    amount,
    debit: pair ? pair.i : null,
    credit: pair ? pair.i + 1 : null,
    flag: flag === -1 ? null : flag,
    currency: currency === -1 ? null : currency,
    status: null,
    account: null,
    payee: null,
    payer: null,
    memo: text[0] ? [text[0].i] : [],
    headerCurrency: null,
  };
}

const clean = (v: string | undefined) => (v ?? '').replace(/\s+/g, ' ').trim();

function symbolCurrency(cell: string): string | null {
  const symbol = cell.replace(/[\d.,'\s+\-()−]/g, '');
  if (symbol === '') return null;
  const c = currencyOfSymbol(symbol);
  return c.kind === 'known' ? c.currency : null;
}

export function readCsv(text: string): ReadStatement {
  const rows = records(text, detectDelimiter(text));
  const headerRow = findHeader(rows);
  const data = headerRow === null ? rows : rows.slice(headerRow + 1);
  // A header whose columns do not hold what it names (rows shifted against it) falls back to content.
  // Columns are told apart on a sample: 2,000 rows say as much as 100,000, at a fiftieth of the cost.
  const sample = data.length > SAMPLE ? data.slice(0, SAMPLE) : data;
  const cols =
    (headerRow === null ? null : fromHeader(rows[headerRow] ?? [], sample)) ?? fromContent(sample);
  const out: ReadStatement = {
    format: 'csv',
    transactions: [],
    skipped: { pending: 0, balance: 0, unreadable: 0 },
    currency: null,
  };
  if (!cols) return out;

  const order: DateOrder = dateOrderOf(column(sample, cols.date));
  const mark = (i: number | null): DecimalMark =>
    i === null ? '.' : decimalMarkOf(column(sample, i));
  const marks = { amount: mark(cols.amount), debit: mark(cols.debit), credit: mark(cols.credit) };
  const amountSigned =
    cols.amount !== null &&
    column(data, cols.amount).some(
      (v) =>
        /^\s*[-−(]|[-−]\s*$|^\s*\D{0,4}\s?-\d/.test(v) && (parseAmount(v, marks.amount) ?? 0) < 0,
    );

  let previous: StatementTransaction | null = null;
  let dollar = false;
  const accounts = new Set<string>();
  for (const row of data) {
    if (row.every((c) => c.trim() === '')) continue;
    const dateCell = row[cols.date] ?? '';
    const status = cols.status === null ? '' : (row[cols.status] ?? '');
    if (isPendingText(dateCell) || isPendingText(status)) {
      out.skipped.pending++;
      continue;
    }
    const date = parseDate(dateCell, order);
    let amount: number | null = null;
    if (cols.amount !== null) {
      const value = parseAmount(row[cols.amount] ?? '', marks.amount);
      const sign = cols.flag === null ? null : flagSign(row[cols.flag] ?? '');
      // Unsigned, the amount is money out unless a flag says otherwise or a plus sign is printed
      // ("+2.500,00", "2500,00+": money in on a statement whose debits carry no sign).
      const plus = /^\s*\+|\+\s*$/.test(row[cols.amount] ?? '');
      if (value !== null)
        amount = amountSigned
          ? value
          : sign !== null
            ? sign * Math.abs(value)
            : plus
              ? Math.abs(value)
              : -Math.abs(value);
    } else {
      const debit = cols.debit === null ? null : parseAmount(row[cols.debit] ?? '', marks.debit);
      const credit =
        cols.credit === null ? null : parseAmount(row[cols.credit] ?? '', marks.credit);
      if (debit !== null || credit !== null) amount = Math.abs(credit ?? 0) - Math.abs(debit ?? 0);
    }
    // The other party: who was paid for money out, who paid for money in (the other column
    // names the account holder).
    const payer =
      cols.payer !== null && amount !== null && amount > 0 ? clean(row[cols.payer]) : '';
    const payee = payer || (cols.payee === null ? null : clean(row[cols.payee]) || null);
    const memo = cols.memo
      .map((i) => clean(row[i]))
      .filter((m, k, all) => m !== '' && all.indexOf(m) === k && m !== payee)
      .join(' ');
    if (date === null) {
      // A line with text only continues the description above it (OCBC wraps long ones).
      if (previous && amount === null && (payee ?? memo) !== '')
        previous.memo = clean(`${previous.memo} ${payee ?? ''} ${memo}`);
      // An amount without a real date is a transaction left out; a line with neither (a title, a
      // footnote, a header the names did not find) is no transaction at all.
      else if (amount !== null) out.skipped.unreadable++;
      continue;
    }
    if (amount === null) {
      out.skipped.unreadable++;
      continue;
    }
    if (isBalanceLine(`${payee ?? ''} ${memo}`) || isTotalText(`${payee ?? ''} ${memo}`)) {
      out.skipped.balance++;
      continue;
    }
    const rowCurrency = cols.currency === null ? null : clean(row[cols.currency]).toUpperCase();
    // The amount column's own header ("Amount (EUR)") says its currency for every row.
    const currency =
      cols.headerCurrency ??
      (rowCurrency && isCurrency(rowCurrency) ? rowCurrency : null) ??
      symbolCurrency(row[cols.amount ?? cols.debit ?? cols.credit ?? 0] ?? '');
    if (currency === null && /\$/.test(row[cols.amount ?? cols.debit ?? cols.credit ?? 0] ?? ''))
      dollar = true;
    // Kept apart from the transactions (whose fingerprint a CSV's account never entered).
    const account = cols.account === null ? '' : clean(row[cols.account]);
    if (account !== '' && accounts.size < MAX_ACCOUNTS) accounts.add(account);
    previous = { date, payee, memo, amount, currency, account: null };
    out.transactions.push(previous);
  }
  if (accounts.size > 0) out.accounts = [...accounts];
  out.currency = mostCommon(out.transactions.map((t) => t.currency));
  // Amounts written "$9.99" with no currency said: as in lines.ts, the US dollar when dates are
  // month first, else a sign the op asks about.
  if (out.currency === null && dollar) {
    if (order === 'mdy') {
      for (const t of out.transactions) t.currency = 'USD';
      out.currency = 'USD';
    } else out.sharedSymbol = '$';
  }
  return out;
}

export function mostCommon(values: ReadonlyArray<string | null>): string | null {
  const counts = new Map<string, number>();
  for (const v of values) if (v) counts.set(v, (counts.get(v) ?? 0) + 1);
  let best: string | null = null;
  let n = 0;
  for (const [v, c] of counts) if (c > n) [best, n] = [v, c];
  return best;
}
