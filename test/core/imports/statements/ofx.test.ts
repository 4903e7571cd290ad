import { describe, expect, it } from 'vitest';

import { looksLikeOfx, readOfx } from '../../../../core/imports/statements/ofx.ts';

const SGML = `OFXHEADER:100
DATA:OFXSGML
VERSION:102
ENCODING:USASCII
CHARSET:1252

<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>EUR
<BANKACCTFROM><BANKID>1<ACCTID>111<ACCTTYPE>CHECKING</BANKACCTFROM>
<BANKTRANLIST>
<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240105120000[0:GMT]<TRNAMT>-15.99<FITID>1<NAME>NETFLIX.COM<MEMO>Abo &amp; mehr
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20240106<TRNAMT>100,00<FITID>2<NAME>Gehalt
</BANKTRANLIST></STMTRS></STMTTRNRS>
<STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><ACCTID>222</BANKACCTFROM><BANKTRANLIST>
<STMTTRN><DTPOSTED>20240107<TRNAMT>-3.77000<NAME>STARBUCKS
</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`;

const XML = `<?xml version="1.0" encoding="UTF-8"?><?OFX OFXHEADER="200" VERSION="202"?>
<OFX><CREDITCARDMSGSRSV1><CCSTMTTRNRS><CCSTMTRS><CURDEF>GBP</CURDEF><CCACCTFROM><ACCTID>9</ACCTID></CCACCTFROM>
<BANKTRANLIST><STMTTRN><DTPOSTED>20240201</DTPOSTED><TRNAMT>
-9.99</TRNAMT><NAME>
Spotify UK</NAME><CURRENCY><CURSYM>EUR</CURSYM></CURRENCY></STMTTRN></BANKTRANLIST></CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>`;

const withDates = (...dates: string[]) =>
  `OFXHEADER:100\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>CAD<BANKTRANLIST>\n${dates
    .map((d, i) => `<STMTTRN><DTPOSTED>${d}<TRNAMT>-${i + 1}.00<NAME>SHOP ${i}\n`)
    .join('')}</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`;

describe('readOfx: dates', () => {
  it('leaves out (and counts) a transaction whose date is not a real calendar date', () => {
    const read = readOfx(withDates('20240131', '201120000000', '20120231', '20240230', '20240229'));
    expect(read.transactions.map((t) => t.date)).toEqual(['2024-01-31', '2024-02-29']);
    expect(read.skipped.unreadable).toBe(3);
  });

  it('refuses a statement none of whose transactions has a real date, naming the first', () => {
    expect(() => readOfx(withDates('201120000000'))).toThrow(
      'None of the 1 transaction(s) in this file can be read: the first (transaction 1, date "201120000000", amount "-1.00")',
    );
  });
});

describe('readOfx', () => {
  it('reads SGML (v1, unclosed tags) with several accounts, each in its currency', () => {
    expect(looksLikeOfx(SGML)).toBe(true);
    expect(readOfx(SGML).transactions).toEqual([
      {
        date: '2024-01-05',
        payee: 'NETFLIX.COM',
        memo: 'Abo & mehr',
        amount: -159900,
        currency: 'EUR',
        account: '111',
      },
      {
        date: '2024-01-06',
        payee: 'Gehalt',
        memo: '',
        amount: 1000000,
        currency: 'EUR',
        account: '111',
      },
      {
        date: '2024-01-07',
        payee: 'STARBUCKS',
        memo: '',
        amount: -37700,
        currency: 'USD',
        account: '222',
      },
    ]);
  });

  it("reads XML (v2) card statements, values on the next line, and a transaction's own currency", () => {
    expect(readOfx(XML).transactions).toEqual([
      {
        date: '2024-02-01',
        payee: 'Spotify UK',
        memo: '',
        amount: -99900,
        currency: 'EUR',
        account: '9',
      },
    ]);
  });
});
