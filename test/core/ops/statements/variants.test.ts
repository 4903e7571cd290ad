import { existsSync, readFileSync } from 'node:fs';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { isOpError, type OpError } from '../../../../core/errors/index.ts';
import { createTestHousehold, type TestHousehold } from '../../../helpers/testCore.ts';

/**
 * Statements we have not seen: one real export (Bank of Ireland's, from the shared fixtures: 27
 * rows in September 2017, Debit/Credit columns, day-first dates, one Netflix charge) written again
 * the ways other banks write the same thing: another delimiter, a BOM, a code page, quoted
 * amounts with thousands separators, each locale's date format, one signed column or a D/C flag,
 * a preamble and a trailing summary, columns in another order or language. Every variant is built
 * in memory from the fixture's rows (the fixture is never copied). Each must read as the original
 * does: the same 27 transactions, the same sum and the same candidate; and each file that is no
 * statement (empty, only a header, another kind of file named .csv) is refused with a sentence in
 * the reader's language, with nothing written.
 */
const FIXTURE = new URL(
  '../../../../../shared/fixtures/bank/csv/bank2ynab-IE-BankOfIreland-test_BOI_TransactionExport.csv',
  import.meta.url,
);

interface Row {
  day: number;
  month: number;
  year: number;
  details: string;
  /** Money out, as the bank wrote it ("2000.0"), or ''. */
  debit: string;
  /** Money in, or ''. */
  credit: string;
}

function rowsOf(text: string): Row[] {
  return text
    .split(/\r?\n/)
    .slice(1)
    .filter((l) => l.trim() !== '')
    .map((line) => {
      const [date = '', details = '', debit = '', credit = ''] = line.split(',');
      const [d, m, y] = date.split('/').map(Number);
      return { day: d ?? 0, month: m ?? 0, year: y ?? 0, details, debit, credit };
    });
}

const pad = (n: number) => String(n).padStart(2, '0');
const MONTHS = 'Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec'.split(' ');

/** "2000.0" with two decimals, a thousands separator and the decimal mark of a locale. */
function money(raw: string, mark: '.' | ',', thousands: string): string {
  if (raw === '') return '';
  const [whole = '0', cents = ''] = Number(raw).toFixed(2).split('.');
  return `${whole.replace(/\B(?=(\d{3})+$)/g, thousands)}${mark}${cents}`;
}

interface Layout {
  header: string[];
  delimiter?: string;
  row: (r: Row) => string[];
  before?: string[];
  after?: string[];
  /** Quote every cell. */
  quoted?: boolean;
}

function render(rows: readonly Row[], layout: Layout, eol = '\n'): string {
  const d = layout.delimiter ?? ',';
  const cell = (c: string) => (layout.quoted ? `"${c}"` : c);
  const line = (cells: string[]) => cells.map(cell).join(d);
  return [
    ...(layout.before ?? []),
    line(layout.header),
    ...rows.map((r) => line(layout.row(r))),
    ...(layout.after ?? []),
  ].join(eol);
}

const dmy = (r: Row, sep = '/') => `${pad(r.day)}${sep}${pad(r.month)}${sep}${r.year}`;
const signed = (r: Row, mark: '.' | ',' = '.', thousands = '') =>
  r.debit ? `-${money(r.debit, mark, thousands)}` : money(r.credit, mark, thousands);

const SPLIT = (date: (r: Row) => string, mark: '.' | ',' = '.', thousands = ''): Layout => ({
  header: ['Date', 'Details', 'Debit', 'Credit'],
  row: (r) => [
    date(r),
    r.details,
    money(r.debit, mark, thousands),
    money(r.credit, mark, thousands),
  ],
});

/** Each variant as bytes, named for what it changes. */
function variants(rows: readonly Row[]): Array<[string, Uint8Array]> {
  const text = (s: string) => Buffer.from(s, 'utf8');
  return [
    [
      'the semicolon and decimal comma of continental Europe',
      text(render(rows, { ...SPLIT((r) => dmy(r, '.'), ','), delimiter: ';' })),
    ],
    ['a tab between cells', text(render(rows, { ...SPLIT((r) => dmy(r)), delimiter: '\t' }))],
    ['a pipe between cells', text(render(rows, { ...SPLIT((r) => dmy(r)), delimiter: '|' }))],
    [
      'a UTF-8 BOM and Windows line ends',
      text(
        `\ufeff${render(
          rows,
          SPLIT((r) => dmy(r)),
          '\r\n',
        )}`,
      ),
    ],
    [
      'the Windows-1252 code page',
      Buffer.from(
        render(
          rows,
          SPLIT((r) => dmy(r)),
        ),
        'latin1',
      ),
    ],
    [
      'quoted amounts with a thousands comma',
      text(render(rows, { ...SPLIT((r) => dmy(r), '.', ','), quoted: true })),
    ],
    [
      'quoted amounts with a thousands point and a decimal comma',
      text(render(rows, { ...SPLIT((r) => dmy(r, '.'), ',', '.'), delimiter: ';', quoted: true })),
    ],
    [
      'ISO dates',
      text(
        render(
          rows,
          SPLIT((r) => `${r.year}-${pad(r.month)}-${pad(r.day)}`),
        ),
      ),
    ],
    [
      'US dates, month first',
      text(
        render(
          rows,
          SPLIT((r) => `${r.month}/${r.day}/${r.year}`),
        ),
      ),
    ],
    [
      'dates with the month named',
      text(
        render(
          rows,
          SPLIT((r) => `${pad(r.day)}-${MONTHS[r.month - 1]}-${r.year}`),
        ),
      ),
    ],
    [
      'two-digit years',
      text(
        render(
          rows,
          SPLIT((r) => `${pad(r.day)}.${pad(r.month)}.${String(r.year).slice(2)}`),
        ),
      ),
    ],
    [
      'one signed amount column',
      text(
        render(rows, {
          header: ['Date', 'Description', 'Amount'],
          row: (r) => [dmy(r), r.details, signed(r)],
        }),
      ),
    ],
    [
      'an unsigned amount and a debit/credit flag',
      text(
        render(rows, {
          header: ['Date', 'Description', 'Amount', 'Type'],
          row: (r) => [
            dmy(r),
            r.details,
            money(r.debit || r.credit, '.', ''),
            r.debit ? 'DR' : 'CR',
          ],
        }),
      ),
    ],
    [
      'columns in another order',
      text(
        render(rows, {
          header: ['Credit', 'Debit', 'Details', 'Date'],
          row: (r) => [money(r.credit, '.', ''), money(r.debit, '.', ''), r.details, dmy(r)],
        }),
      ),
    ],
    [
      'Spanish headings',
      text(
        render(rows, {
          header: ['Fecha', 'Concepto', 'Cargo', 'Abono'],
          delimiter: ';',
          row: (r) => [dmy(r), r.details, money(r.debit, ',', '.'), money(r.credit, ',', '.')],
        }),
      ),
    ],
    [
      'a preamble above the header',
      text(
        render(rows, {
          ...SPLIT((r) => dmy(r)),
          before: [
            'Account,IE12 BOFI 9000 0112 3456 78',
            'Statement from 01/09/2017 to 30/09/2017',
            '',
          ],
        }),
      ),
    ],
    [
      'a trailing summary (totals and the closing balance)',
      text(
        render(rows, {
          ...SPLIT((r) => dmy(r)),
          after: [
            '',
            'Total,,4419.25,3366.79',
            'Closing balance,,,-52.46',
            'Exported 01/10/2017,,,',
          ],
        }),
      ),
    ],
    [
      'debits in parentheses (accounting style)',
      text(
        render(rows, {
          header: ['Date', 'Description', 'Amount'],
          row: (r) => [
            dmy(r),
            r.details,
            r.debit ? `(${money(r.debit, '.', ',')})` : money(r.credit, '.', ','),
          ],
          quoted: true,
        }),
      ),
    ],
    [
      'the minus after the amount',
      text(
        render(rows, {
          header: ['Datum', 'Text', 'Betrag'],
          delimiter: ';',
          row: (r) => [
            dmy(r, '.'),
            r.details,
            r.debit ? `${money(r.debit, ',', '.')}-` : money(r.credit, ',', '.'),
          ],
        }),
      ),
    ],
    [
      'a space between thousands and a euro sign (French)',
      text(
        render(rows, {
          header: ['Date', 'Libellé', 'Débit', 'Crédit'],
          delimiter: ';',
          row: (r) => [
            dmy(r),
            r.details,
            r.debit ? `-${money(r.debit, ',', ' ')} €` : '',
            r.credit ? `${money(r.credit, ',', ' ')} €` : '',
          ],
        }),
      ),
    ],
    [
      'Swiss apostrophes between thousands',
      text(
        render(rows, {
          header: ['Datum', 'Buchungstext', 'Belastung', 'Gutschrift'],
          delimiter: ';',
          row: (r) => [dmy(r, '.'), r.details, money(r.debit, '.', "'"), money(r.credit, '.', "'")],
        }),
      ),
    ],
    [
      'German headings with Soll and Haben',
      text(
        render(rows, {
          header: ['Buchungstag', 'Verwendungszweck', 'Soll', 'Haben', 'Währung'],
          delimiter: ';',
          quoted: true,
          row: (r) => [
            dmy(r, '.'),
            r.details,
            money(r.debit, ',', '.'),
            money(r.credit, ',', '.'),
            'EUR',
          ],
        }),
      ),
    ],
    [
      'a time after each date',
      text(
        render(
          rows,
          SPLIT((r) => `${r.year}-${pad(r.month)}-${pad(r.day)} 14:03:11`),
        ),
      ),
    ],
    [
      'descriptions holding the delimiter and a line break, quoted',
      text(
        render(rows, {
          header: ['Date', 'Details', 'Debit', 'Credit'],
          row: (r) => [
            dmy(r),
            `"${r.details.trim()}, IE\nref 0042"`,
            money(r.debit, '.', ''),
            money(r.credit, '.', ''),
          ],
        }),
      ),
    ],
    [
      'UTF-16 with a BOM, as Excel saves "Unicode text"',
      Buffer.from(
        `\ufeff${render(rows, { ...SPLIT((r) => dmy(r)), delimiter: '\t' }, '\r\n')}`,
        'utf16le',
      ),
    ],
    [
      'dated total and balance rows at the end',
      text(
        render(rows, {
          ...SPLIT((r) => dmy(r)),
          after: [
            '30/09/2017,TOTAL,4260.83,3841.22',
            '30/09/2017,Closing balance,,',
            '30/09/2017,Saldo final,,',
          ],
        }),
      ),
    ],
  ];
}

const NOT_STATEMENTS: Array<[string, Uint8Array]> = [
  ['only a header', Buffer.from('Date,Details,Debit,Credit,Balance\n')],
  [
    'a spreadsheet (XLSX, a ZIP) named .csv',
    Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0]), Buffer.alloc(64)]),
  ],
  ['a JSON file named .csv', Buffer.from('{"transactions": [], "note": "none this month"}')],
  [
    'a web page saved as .csv',
    Buffer.from('<!doctype html><html><body><h1>Sign in</h1></body></html>'),
  ],
];

async function refusal(promise: Promise<unknown>): Promise<OpError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!isOpError(error)) throw new Error(`expected an OpError, got ${String(error)}`);
  return error;
}

describe.runIf(existsSync(FIXTURE))('statements written the ways other banks write them', () => {
  let h: TestHousehold;
  beforeEach(async () => {
    h = await createTestHousehold();
  });
  afterEach(async () => h.close());
  const rows = existsSync(FIXTURE) ? rowsOf(readFileSync(FIXTURE, 'utf8')) : [];
  const send = (bytes: Uint8Array, name = 'statement.csv') => ({
    file_name: name,
    content: Buffer.from(bytes).toString('base64'),
    encoding: 'base64' as const,
  });

  it('reads the fixture itself: 27 transactions, their sum, and its one Netflix charge', async () => {
    expect(rows).toHaveLength(27);
    const { output } = await h.core.invoke('read_statement', h.owner, send(readFileSync(FIXTURE)));
    expect(output.transactions).toMatchObject({ count: 27, sum: '-419.61', currency: 'EUR' });
    expect(
      output.candidates.map((c) => [c.name, c.amount, c.currency, c.cycle.unit, c.last_charge]),
    ).toEqual([['Netflix', '9.99', 'EUR', 'month', '2017-09-20']]);
  });

  it.each(variants(rows))('reads it written with %s the same way', async (_what, bytes) => {
    const { output } = await h.core.invoke('read_statement', h.owner, send(bytes));
    expect(output.transactions).toMatchObject({
      count: 27,
      first_date: '2017-09-01',
      last_date: '2017-09-28',
      sum: '-419.61',
      money_out: '4260.83',
      money_in: '3841.22',
    });
    expect(
      output.candidates.map((c) => [c.name, c.amount, c.currency, c.cycle.unit, c.last_charge]),
    ).toEqual([['Netflix', '9.99', 'EUR', 'month', '2017-09-20']]);
  });

  it('imports a variant as it read it, once', async () => {
    const [, bytes] = variants(rows)[0] ?? ['', new Uint8Array()];
    const { output } = await h.core.invoke('import_candidates', h.owner, {
      ...send(bytes),
      candidates: ['netflix:month:1'],
    });
    expect(output).toMatchObject({ created: 1, past_charges: 1 });
    const again = await refusal(
      h.core.invoke('import_candidates', h.owner, {
        ...send(bytes),
        candidates: ['netflix:month:1'],
      }),
    );
    expect(again.key).toBe('errors.statements.imported_before');
    expect(await h.db.knex('subscriptions')).toHaveLength(1);
  });

  it.each(NOT_STATEMENTS)(
    'refuses %s in the reader’s language, and imports nothing',
    async (_what, bytes) => {
      const read = await refusal(
        h.core.invoke('read_statement', h.owner, send(bytes, 'export.csv')),
      );
      expect(read.key).toBe('errors.statements.unreadable');
      expect(read.render('en')).toContain("Exhale can't find transactions in this file");
      expect(read.render('es')).toMatch(/^Exhale no encuentra movimientos/);
      const imported = await refusal(
        h.core.invoke('import_candidates', h.owner, {
          ...send(bytes, 'export.csv'),
          candidates: ['netflix:month:1'],
        }),
      );
      expect(imported.key).toBe('errors.statements.unreadable');
      expect(await h.db.knex('subscriptions')).toEqual([]);
      expect(await h.db.knex('statement_imports')).toEqual([]);
      expect(await h.db.knex('audit_entries').where({ op: 'import_candidates' })).toEqual([]);
    },
  );

  it.each([
    ['no bytes at all', ''],
    ['a single line break', Buffer.from('\n').toString('base64')],
    ['only blank lines', Buffer.from('\r\n\r\n  \r\n').toString('base64')],
  ])(
    'refuses a file of %s as empty, in English and Spanish, and imports nothing',
    async (_what, content) => {
      const file = { file_name: 'empty.csv', content, encoding: 'base64' as const };
      const error = await refusal(h.core.invoke('read_statement', h.owner, file));
      expect(error.key).toBe('errors.importReview.empty');
      expect(error.render('en')).toMatch(/^This file is empty/);
      expect(error.render('es')).toMatch(/^Este archivo está vacío/);
      const imported = await refusal(
        h.core.invoke('import_candidates', h.owner, { ...file, candidates: ['netflix:month:1'] }),
      );
      expect(imported.key).toBe('errors.importReview.empty');
      expect(await h.db.knex('statement_imports')).toEqual([]);
    },
  );
});
