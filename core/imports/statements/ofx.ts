import { isCurrency } from '../../domain/currencies.ts';
import { OpError } from '../../errors/index.ts';
import { parseAmount } from './amounts.ts';
import { mostCommon } from './csv.ts';
import { parseDate } from './dates.ts';
import type { ReadStatement, StatementTransaction } from './types.ts';

/**
 * Reads OFX and QFX: version 1 (SGML, where leaf tags are often not closed) and version 2 (XML)
 * alike, since values are read as "<TAG>value" up to the next tag or line end. Each statement
 * (<STMTRS> for bank accounts, <CCSTMTRS> for cards) gives its account and default currency
 * (<CURDEF>; a transaction's own <CURRENCY><CURSYM> wins); transactions are its <STMTTRN> blocks.
 */

function value(block: string, tag: string): string | null {
  // SGML leaves the tag open ("<NAME>NETFLIX" then a line break); some writers break the line after the tag.
  const m = new RegExp(`<${tag}>\\s*([^<]*)`, 'i').exec(block);
  const v = m?.[1]?.replace(/\\s+/g, ' ').trim();
  return v ? decodeEntities(v) : null;
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&amp;/g, '&');
}

/**
 * "20240131120000.000[-5:EST]" → "2024-01-31"; null when it is not a real calendar date
 * ("201120000000" is month 20, "20120231" is February 31), so that line is unreadable.
 */
function ofxDate(text: string | null): string | null {
  const m = /^(\d{8})/.exec(text ?? '');
  return m?.[1] ? parseDate(m[1]) : null;
}

/** Splits `text` into the blocks that start with `<tag>`, each up to its close or the next open. */
function blocks(text: string, tag: string): string[] {
  const open = new RegExp(`<${tag}>`, 'gi');
  const starts: number[] = [];
  for (let m = open.exec(text); m; m = open.exec(text)) starts.push(m.index);
  return starts.map((start, i) => {
    const end = starts[i + 1] ?? text.length;
    const chunk = text.slice(start, end);
    const close = chunk.search(new RegExp(`</${tag}>`, 'i'));
    return close >= 0 ? chunk.slice(0, close) : chunk;
  });
}

export function looksLikeOfx(text: string): boolean {
  return /OFXHEADER|<OFX>/i.test(text.slice(0, 4096));
}

export function readOfx(text: string): ReadStatement {
  const out: ReadStatement = {
    format: 'ofx',
    transactions: [],
    skipped: { pending: 0, balance: 0, unreadable: 0 },
    currency: null,
  };
  /** The first unreadable transaction, to name it when no transaction can be read. */
  let firstBad: { n: number; date: string; amount: string } | null = null;
  let n = 0;
  // Bank, card and investment statements (the last hold cash lines as <INVBANKTRAN><STMTTRN>).
  const statements = [
    ...blocks(text, 'STMTRS'),
    ...blocks(text, 'CCSTMTRS'),
    ...blocks(text, 'INVSTMTRS'),
  ];
  for (const statement of statements) {
    const curdef = value(statement, 'CURDEF')?.toUpperCase() ?? null;
    const account = value(statement, 'ACCTID');
    for (const trn of blocks(statement, 'STMTTRN')) {
      n++;
      const rawDate = value(trn, 'DTPOSTED') ?? value(trn, 'DTUSER');
      const date = ofxDate(rawDate);
      const raw = value(trn, 'TRNAMT');
      // OFX amounts use a point; a comma appears in some European exports.
      const amount =
        raw === null ? null : parseAmount(raw, raw.includes(',') && !raw.includes('.') ? ',' : '.');
      if (date === null || amount === null) {
        out.skipped.unreadable++;
        firstBad ??= { n, date: rawDate ?? '—', amount: raw ?? '—' };
        continue;
      }
      const own = value(trn, 'CURSYM')?.toUpperCase() ?? null;
      const currency = own && isCurrency(own) ? own : curdef && isCurrency(curdef) ? curdef : null;
      const tx: StatementTransaction = {
        date,
        payee: value(trn, 'NAME'),
        memo: value(trn, 'MEMO') ?? '',
        amount,
        currency,
        account,
      };
      out.transactions.push(tx);
    }
  }
  // Every transaction unreadable: refused, naming the first, rather than an empty statement.
  if (out.transactions.length === 0 && firstBad)
    throw new OpError('invalid_input', 'errors.statementHints.no_readable_line', {
      count: out.skipped.unreadable,
      n: firstBad.n,
      date: firstBad.date,
      amount: firstBad.amount,
    });
  out.currency = mostCommon(out.transactions.map((t) => t.currency));
  return out;
}
