import { describe, expect, it } from 'vitest';

import {
  decimalMarkOf,
  formatScaled,
  parseAmount,
} from '../../../../core/imports/statements/amounts.ts';
import { readCsv } from '../../../../core/imports/statements/csv.ts';
import { dateOrderOf, parseDate } from '../../../../core/imports/statements/dates.ts';
import { decodeStatement } from '../../../../core/imports/statements/encoding.ts';

const amounts = (text: string) => readCsv(text).transactions.map((t) => formatScaled(t.amount, 2));

describe('amount cells', () => {
  it.each([
    ['-15.99', '.', '-15.99'],
    ['15,99', ',', '15.99'],
    ['+1.234,56', ',', '1234.56'],
    ['1,234.56', '.', '1234.56'],
    ["11'373.94", '.', '11373.94'],
    ['£1,183.23', '.', '1183.23'],
    ['-$7,971.39', '.', '-7971.39'],
    ['(12.00)', '.', '-12.00'],
    ['12.00-', '.', '-12.00'],
    ['2500,00+', ',', '2500.00'],
    ['26.851,95|', ',', '26851.95'],
    ['EUR 9.99', '.', '9.99'],
    ['-3.77000', '.', '-3.77'],
  ] as const)('reads %s', (cell, mark, expected) => {
    expect(formatScaled(parseAmount(cell, mark) ?? NaN, 2)).toBe(expected);
  });

  it('decides the decimal mark from the column, since "1,234" alone could be either', () => {
    expect(decimalMarkOf(['1,234', '-2,56', '10,00'])).toBe(',');
    expect(decimalMarkOf(['1,234', '2.56'])).toBe('.');
    expect(parseAmount('not money', '.')).toBeNull();
  });
});

describe('date cells', () => {
  it.each([
    ['2018-03-01', '2018-03-01'],
    ['2018-02-25 12:34:56 +0000', '2018-02-25'],
    ['2019.04.19.', '2019-04-19'],
    ['2012:03:01', '2012-03-01'],
    ['20190311', '2019-03-11'],
    ['18.09.2017', '2017-09-18'],
    ['22.02.18', '2018-02-22'],
    ['28-Mar-2020', '2020-03-28'],
    ['27 Feb 2018', '2018-02-27'],
    ['10 Feb 18', '2018-02-10'],
    ['17 maart 2025', '2025-03-17'],
    ['3 janvier 2024', '2024-01-03'],
  ])('reads %s', (cell, expected) => {
    expect(parseDate(cell)).toBe(expected);
  });

  it('decides day or month first from the column: a number above 12, else the order that keeps rows sorted', () => {
    expect(dateOrderOf(['3/18/2016', '3/15/2016'])).toBe('mdy');
    expect(dateOrderOf(['18/03/2016', '01/04/2016'])).toBe('dmy');
    // No number above 12: Jan 2, Jan 5, Feb 1 is in order month first; day first it would not be.
    expect(dateOrderOf(['01/02/2024', '01/05/2024', '02/01/2024'])).toBe('mdy');
    expect(dateOrderOf(['02/01/2024', '05/01/2024', '01/02/2024'])).toBe('dmy');
  });

  it('with rows as out of order either way, takes the order that keeps the dates closest together', () => {
    // YNAB's register: January 1, 2, 5, 6 and 4 month first; five months' firsts day first.
    const cells = ['01/01/2024', '01/02/2024', '01/05/2024', '01/06/2024', '01/04/2024'];
    expect(dateOrderOf(cells)).toBe('mdy');
    expect(
      dateOrderOf(['01/01/2024', '02/01/2024', '05/01/2024', '06/01/2024', '04/01/2024']),
    ).toBe('dmy');
  });
});

describe('readCsv', () => {
  it('finds the header below a preamble, in German, with decimal commas and the currency', () => {
    const text = [
      '"Umsatzanzeige";"Datei erstellt am: 28.12.2018"',
      '',
      'Buchung;Auftraggeber/Empfänger;Verwendungszweck;Saldo;Währung;Betrag;Währung',
      '28.12.2018;Netflix;Abo;150,00;EUR;-15,99;EUR',
      '27.12.2018;ACME;Gehalt;165,99;EUR;1.234,56;EUR',
    ].join('\n');
    const read = readCsv(text);
    expect(read.transactions).toEqual([
      {
        date: '2018-12-28',
        payee: 'Netflix',
        memo: 'Abo',
        amount: -159900,
        currency: 'EUR',
        account: null,
      },
      {
        date: '2018-12-27',
        payee: 'ACME',
        memo: 'Gehalt',
        amount: 12345600,
        currency: 'EUR',
        account: null,
      },
    ]);
  });

  it("reads amounts in the currency their column's header names, never in the currency of an original (foreign) amount", () => {
    // N26's export: a card payment in dollars, booked in euros.
    const text = [
      '"Booking Date","Value Date","Partner Name","Type","Payment Reference","Amount (EUR)","Original Amount","Original Currency","Exchange Rate"',
      '2026-09-12,2026-09-12,"Hulu LLC",Presentment,"",-11.20,-12.99,USD,0.8622',
      '2026-09-14,2026-09-14,"Bakery",Presentment,"",-3.40,,,',
      '2026-10-12,2026-10-12,"Hulu LLC",Presentment,"",-11.05,-12.99,USD,0.8507',
    ].join('\n');
    const read = readCsv(text);
    expect(read.transactions.map((t) => [t.payee, formatScaled(t.amount, 2), t.currency])).toEqual([
      ['Hulu LLC', '-11.20', 'EUR'],
      ['Bakery', '-3.40', 'EUR'],
      ['Hulu LLC', '-11.05', 'EUR'],
    ]);
    expect(read.currency).toBe('EUR');
  });

  it('takes the other party from the payee column for money out and the payer column for money in, and the euro of "Betrag (€)"', () => {
    // DKB's export names both sides; the account holder is one of them on every row.
    const text = [
      '"Girokonto";"DE02 1203 0000 0000 2020 51"',
      '""',
      '"Buchungsdatum";"Wertstellung";"Status";"Zahlungspflichtige*r";"Zahlungsempfänger*in";"Verwendungszweck";"Umsatztyp";"IBAN";"Betrag (€)"',
      '"30.10.2026";"30.10.2026";"Gebucht";"Musterfirma AG";"Erika Muster";"Lohn 10/2026";"Eingang";"DE00";"2.100,00"',
      '"04.11.2026";"04.11.2026";"Gebucht";"Erika Muster";"Zattoo Europa AG";"Zattoo Abo 11/2026";"Ausgang";"DE00";"-9,99"',
    ].join('\n');
    expect(
      readCsv(text).transactions.map((t) => [
        t.payee,
        t.memo,
        formatScaled(t.amount, 2),
        t.currency,
      ]),
    ).toEqual([
      ['Musterfirma AG', 'Lohn 10/2026', '2100.00', 'EUR'],
      ['Zattoo Europa AG', 'Zattoo Abo 11/2026', '-9.99', 'EUR'],
    ]);
  });

  it('reads debit and credit columns, a C/D flag, and unsigned amounts as money out', () => {
    expect(
      amounts('Date,Details,Debit,Credit\n01/09/2017,Shop,512.0,\n02/09/2017,Salary,,100'),
    ).toEqual(['-512.00', '100.00']);
    expect(
      amounts(
        'Transactiedatum;CreditDebet;Bedrag;Omschrijving\n21-06-2019;D;827,75;x\n21-06-2019;C;1,25;y',
      ),
    ).toEqual(['-827.75', '1.25']);
    expect(
      amounts('Date,Description,Amount\n28-Mar-2020,Amazon,£99.99\n30-Mar-2020,Kindle,£0.99'),
    ).toEqual(['-99.99', '-0.99']);
  });

  it('reads a sign printed after the amount, "-" as money out and "+" as money in, with unsigned amounts beside a "+" as money out', () => {
    // A Dutch bank's export: the sign after the amount.
    expect(
      amounts(
        'Datum,Omschrijving,Bedrag\n2026-08-03,"NETFLIX","13,99-"\n2026-08-25,"SALARIS","2500,00+"',
      ),
    ).toEqual(['-13.99', '2500.00']);
    expect(
      amounts('Datum;Omschrijving;Bedrag\n2026-08-03;ZIGGO;45,00\n2026-08-25;SALARIS;2500,00+'),
    ).toEqual(['-45.00', '2500.00']);
  });

  it('counts a row with an amount but no real date as unreadable, and a line of text alone (a footnote) as no row at all', () => {
    const read = readCsv(
      'Date;Description;Amount\n30.01.2024;NETFLIX;-15,99\n31.02.2024;SPOTIFY;-10,99\n02.02.2024;AUDIBLE;-9,99\n"* not yet booked"',
    );
    expect(read.transactions).toHaveLength(2);
    expect(read.skipped.unreadable).toBe(1);
  });

  it("keeps the statement's own card or account apart from its transactions, once each", () => {
    const read = readCsv(
      'Transaction Date,Card No.,Description,Debit,Credit\n2026-08-09,1234,NYTIMES,17.00,\n2026-08-14,1234,ADOBE,59.99,\n2026-08-15,5678,AUDIBLE,14.95,',
    );
    expect(read.accounts).toEqual(['1234', '5678']);
    expect(read.transactions.map((t) => t.account)).toEqual([null, null, null]);
    expect(readCsv('Date,Description,Amount\n2026-08-09,NYTIMES,-17.00').accounts).toBeUndefined();
  });

  it('leaves out pending rows and opening and closing balances, and counts them', () => {
    const read = readCsv(
      'Date,Description,Amount\nPending,NOWTV,£8.99\n01-Dec-2019,Spotify,£9.99\n02-Dec-2019,SALDO INIZIALE,£100.00',
    );
    expect(read.transactions.map((t) => t.payee ?? t.memo)).toEqual(['Spotify']);
    expect(read.skipped).toEqual({ pending: 1, balance: 1, unreadable: 0 });
  });

  it('leaves out (and counts) a row whose date is not a real calendar date', () => {
    const read = readCsv(
      'Date;Description;Amount\n30.01.2024;NETFLIX;-15,99\n31.02.2024;SPOTIFY;-10,99\n29.02.2024;AUDIBLE;-9,99\n2024-02-30;DISNEY;-8,99',
    );
    expect(read.transactions.map((t) => [t.date, `${t.payee ?? ''}${t.memo}`])).toEqual([
      ['2024-01-30', 'NETFLIX'],
      ['2024-02-29', 'AUDIBLE'],
    ]);
    expect(read.skipped.unreadable).toBe(2);
  });

  it('reads a file without a header from what its columns hold', () => {
    const text =
      '18.09.2017;"HOFER DANKT 0527";18.09.2017;-33,87;EUR;;\n19.09.2017;"LIDL DANKT 0391";19.09.2017;-8,94;EUR;;';
    expect(readCsv(text).transactions).toMatchObject([
      { date: '2017-09-18', memo: 'HOFER DANKT 0527', amount: -338700, currency: 'EUR' },
      { date: '2017-09-19', memo: 'LIDL DANKT 0391', amount: -89400, currency: 'EUR' },
    ]);
  });

  it('joins a line without date or amount to the description above it', () => {
    const read = readCsv(
      'Transaction date,Description,Withdrawals (SGD),Deposits (SGD)\n18/04/2018,DEBIT PURCHASE,6.66,\n,UBER EATS,,\n17/04/2018,ATM,66.66,',
    );
    expect(read.transactions.map((t) => [t.memo, formatScaled(t.amount, 2), t.currency])).toEqual([
      ['DEBIT PURCHASE UBER EATS', '-6.66', 'SGD'],
      ['ATM', '-66.66', 'SGD'],
    ]);
  });
});

describe('decodeStatement', () => {
  it('reads UTF-8 with and without BOM, and detects single-byte code pages', async () => {
    expect(await decodeStatement(Buffer.from('\uFEFFDatum;Betrag', 'utf8'))).toEqual({
      text: 'Datum;Betrag',
      encoding: 'utf-8',
    });
    const latin1 = Buffer.from(
      'Buchungstag;Empfänger;Währung;Verwendungszweck\n01.01.2024;Müller & Söhne GmbH;EUR;Gebühr für Überweisung\n',
      'latin1',
    );
    expect((await decodeStatement(latin1)).text).toContain('Müller & Söhne');
    // Windows-1250 files (Czech, Polish) are in the fixture suite: a few bytes are too few for chardet.
  });
});
