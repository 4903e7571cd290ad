import { describe, expect, it } from 'vitest';

import { formatScaled } from '../../../../core/imports/statements/amounts.ts';
import { readLines } from '../../../../core/imports/statements/lines.ts';

const rows = (text: string) =>
  readLines(text).transactions.map((t) => [t.date, t.memo, formatScaled(t.amount, 2)]);

describe('readLines (PDF text, pdftotext output, and later OCR text)', () => {
  it('reads "$" amounts as USD when dates are month first, and leaves the sign to ask about otherwise', () => {
    const us = readLines(
      'Statement 03/31/2024\n03/05/2024   NETFLIX.COM    $15.99\n03/14/2024   TARGET   $8.00',
    );
    expect([us.currency, us.transactions.map((t) => t.currency), us.sharedSymbol]).toEqual([
      'USD',
      ['USD', 'USD'],
      undefined,
    ]);
    const other = readLines('Statement 31.03.2024\n05.03.2024   NETFLIX.COM    $15.99');
    expect([other.currency, other.sharedSymbol]).toEqual([null, '$']);
  });

  it('never reads a date that is not a real calendar date (31.02, 30/02, month 13)', () => {
    const text = `Statement 31.03.2024
30.01.2024   NETFLIX.COM          15,99
31.02.2024   SPOTIFY              10,99
30/02/2024   DISNEY PLUS           8,99
01.13.2024   ACME                  1,00
29.02.2024   AUDIBLE               9,99`;
    expect(rows(text).map(([date]) => date)).toEqual(['2024-01-30', '2024-02-29']);
  });

  it('reads dated lines ending in an amount, with the year of the statement and Dutch month names', () => {
    const text = `17 januari 2019
Datum      Datum     Omschrijving                        Bedrag
23 dec     04 jan    Avis Rent A Car   JOHANNESBURG  ZA     26,32   Af
02 jan     03 jan    IDEAL BETALING, DANK U                500,00   Bij`;
    expect(rows(text)).toEqual([
      ['2018-12-23', 'Avis Rent A Car JOHANNESBURG ZA', '-26.32'],
      ['2019-01-02', 'IDEAL BETALING, DANK U', '500.00'],
    ]);
  });

  it('tells money in from out by the column under a Credit heading, reads (12.00) as money in, and joins wrapped descriptions', () => {
    const text = `STATEMENT DATE 01-07-2023
 DATE    DESCRIPTION                     DEBIT          CREDIT
 02/07   PAYMENT BY INTERNET                             (412.16)
 03/07   NETFLIX SUBSCRIPTION           15.98
         NETFLIX.COM SG
 05/07   REFUND SHOP                                    20.00`;
    expect(rows(text)).toEqual([
      ['2023-07-02', 'PAYMENT BY INTERNET', '412.16'],
      ['2023-07-03', 'NETFLIX SUBSCRIPTION NETFLIX.COM SG', '-15.98'],
      ['2023-07-05', 'REFUND SHOP', '20.00'],
    ]);
  });

  it('leaves out a summary row (a due date, a label and the operator of the sum) and keeps a heading out of the description above it', () => {
    // As the Mercury card statement's text comes out of its PDF.
    const text = `SUMMARY OF ACCOUNT ACTIVITY   October 06, 2024 - November 05, 2024
                                   12/02/2024     Fees Charged                +                $0.00
                                   12/02/2024     Interest Charged            +                $0.00
11/01   10/31    Minimalist Pho            12345678                         $29.99
NEW TRANSACTIONS
Post    Trans
10/07   10/06   Car Wash      Palo Alto   CA     12345678                   $35.30`;
    const read = readLines(text);
    expect(rows(text)).toEqual([
      ['2024-11-01', 'Minimalist Pho 12345678', '-29.99'],
      ['2024-10-07', 'Car Wash Palo Alto CA 12345678', '-35.30'],
    ]);
    expect(read.skipped.balance).toBe(2);
  });

  it('reads a minus as money in on a card statement whose purchases are unsigned, and as money out once a plus sign is printed', () => {
    const card = `Statement 11/05/2024
10/07   Car Wash                 $35.30
10/12   Amazon                  $101.55
10/31   Minimalist Pho           -$29.99`;
    expect(rows(card).map(([, , amount]) => amount)).toEqual(['-35.30', '-101.55', '29.99']);
    const bank = `Statement 11/05/2024
10/07   Car Wash                 $35.30
10/12   Salary               +$2,500.00
10/31   Minimalist Pho           -$29.99`;
    expect(rows(bank).map(([, , amount]) => amount)).toEqual(['-35.30', '2500.00', '-29.99']);
  });

  it('reads an unsigned amount as money in on a statement whose debits carry a minus (a German bank PDF)', () => {
    // Booking and value date, debits "-8,99", credits unsigned, as a Kontoauszug's text comes out.
    const text = `Kontoauszug 11/2026
Buchung     Valuta    Auftraggeber/Empfaenger / Buchungstext         Betrag (EUR)
03.10.2026 03.10.2026 Lastschrift Zattoo                       -9,99
15.10.2026 15.10.2026 Lastschrift Stadtwerke Strom              -64,00
28.10.2026 28.10.2026 Lohn Musterfirma                       3.120,50
03.11.2026 03.11.2026 Lastschrift Zattoo                       -9,99
Neuer Saldo                              4.123,45`;
    expect(rows(text).map(([, memo, amount]) => [memo, amount])).toEqual([
      ['Lastschrift Zattoo', '-9.99'],
      ['Lastschrift Stadtwerke Strom', '-64.00'],
      ['Lohn Musterfirma', '3120.50'],
      ['Lastschrift Zattoo', '-9.99'],
    ]);
  });

  it('reads a line whose booking text starts with a credit word ("Gutschrift", "Abono") as money in when nothing else says', () => {
    const text = `Kontoauszug 30.11.2026
02.11.2026  Lastschrift Zattoo             9,99
05.11.2026  Kartenzahlung Backerei         4,20
27.11.2026  Gutschrift Gehalt Firma Z  2.980,00
28.11.2026  Abono transferencia           50,00`;
    expect(rows(text).map(([, , amount]) => amount)).toEqual([
      '-9.99',
      '-4.20',
      '2980.00',
      '50.00',
    ]);
  });
});
