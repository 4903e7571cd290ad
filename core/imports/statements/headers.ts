import { fold } from './dates.ts';

/**
 * Column names of bank CSV exports in English, Spanish, German, French, Dutch, Italian,
 * Portuguese, Swedish, Polish, Czech, Hungarian (and Finnish and Lithuanian, met in real files),
 * folded (lower case, no accents, no punctuation). Earlier names in a list win when several
 * columns match a role: "Buchungstag" over "Wertstellung".
 */

export type Role =
  | 'date'
  | 'amount'
  | 'debit'
  | 'credit'
  | 'flag'
  | 'currency'
  | 'payee'
  | 'payer'
  | 'memo'
  | 'status'
  | 'account'
  | 'ignore';

const NAMES: Readonly<Record<Role, readonly string[]>> = {
  date: [
    'date',
    'transaction date',
    'posting date',
    'booking date',
    'date processed',
    'posted date',
    'completed date',
    'started date',
    'created',
    'trans date',
    'buchungstag',
    'buchung',
    'buchungsdatum',
    'belegdatum',
    'datum',
    'transactiedatum',
    'boekdatum',
    'uitvoeringsdatum',
    'datum verrichting',
    'fecha',
    'fecha operacion',
    'fecha valor',
    'date operation',
    'date de transaction',
    'date de comptabilisation',
    'date de valeur',
    'data',
    'data operazione',
    'data contabile',
    'data movimento',
    'data transacao',
    'data do movimento',
    'bokforingsdag',
    'transaktionsdatum',
    'bokford',
    'data ksiegowania',
    'data operacji',
    'data transakcji',
    'datum provedeni',
    'datum zauctovani',
    'datum zauctovani',
    'tranzakcio datuma',
    'konyvelesi datum',
    'kirjauspaiva',
    'maksupaiva',
    'value date',
    'valutadatum',
    'wertstellung',
    'valuta',
    'arvopaiva',
  ],
  amount: [
    'amount',
    'amount (eur)',
    'betrag',
    'betrag (eur)',
    'buchungsbetrag',
    'umsatz',
    'bedrag',
    'bedrag (eur)',
    'bedrag in eur',
    'importe',
    'cantidad',
    'montant',
    'montant (eur)',
    'importo',
    'valor',
    'montante',
    'belopp',
    'kwota',
    'kwota operacji',
    'castka',
    'zauctovana castka',
    'castka czk',
    'amount czk',
    'osszeg',
    'tranzakcio osszege',
    'maara',
    'maara euroa',
    'suma',
    'summa',
    'transaction amount',
    'local_amount',
  ],
  debit: [
    'debit',
    'debit amount',
    'debet',
    'soll',
    'withdrawal',
    'withdrawals',
    'outflow',
    'money out',
    'paid out',
    'addebiti',
    'uscite',
    'cargo',
    'cargos',
    'debito',
    'belastung',
    'af',
    'uttag',
    'obciazenia',
    'wyplata',
    'terheles',
  ],
  credit: [
    'credit',
    'credit amount',
    'haben',
    'deposit',
    'deposits',
    'inflow',
    'money in',
    'paid in',
    'accrediti',
    'entrate',
    'abono',
    'abonos',
    'credito',
    'gutschrift',
    'bij',
    'insattning',
    'uznania',
    'wplata',
    'jovairas',
  ],
  flag: [
    'creditdebet',
    'credit debet',
    'af bij',
    'd/k',
    'bevetel/kiadas',
    'debit/credit',
    'cr/dr',
    'soll/haben',
    'transaction type',
    'type',
  ],
  currency: [
    'currency',
    'wahrung',
    'waehrung',
    'buchungswahrung',
    'munt',
    'valutacode',
    'valuta rekening',
    'moneda',
    'divisa',
    'devise',
    'monn',
    'valuta',
    'moeda',
    'waluta',
    'mena',
    'mena uctu',
    'tranzakcio devizaneme',
    'devizanem',
    'valiuta',
  ],
  payee: [
    'payee',
    'name',
    'merchant name',
    'merchant',
    'partner name',
    'counterparty',
    'naam tegenpartij',
    'tegenrekeninghouder',
    'naam',
    'beguenstigter/zahlungspflichtiger',
    'auftraggeber/empfanger',
    'empfanger',
    'empfangername',
    'zahlungsempfanger',
    'beneficiario',
    'beneficiaire',
    'beneficiario/ordenante',
    'handelaar',
    'saaja/maksaja',
    'partner neve',
    'nazev protiuctu',
    'gavejas',
    'mottagare',
    'odbiorca',
    'store name',
    'naam / omschrijving',
  ],
  // Who paid, on a statement that names both sides (DKB): the other party of money in.
  payer: ['zahlungspflichtige', 'zahlungspflichtiger', 'auftraggeber', 'payer', 'ordenante'],
  memo: [
    'description',
    'details',
    'transaction description',
    'memo',
    'reference',
    'payment reference',
    'verwendungszweck',
    'buchungstext',
    'transaktionsbeschreibung',
    'umsatztext',
    'text',
    'omschrijving',
    'mededelingen',
    'concepto',
    'descripcion',
    'libelle',
    'description 1',
    'descrizione',
    'descrizione operazioni',
    'descricao',
    'beskrivning',
    'tytul',
    'opis',
    'zprava',
    'popis',
    'kozlemeny',
    'selitys',
    'viesti',
    'paaiskinimai',
    'desc',
    'original description',
    'reason',
  ],
  status: ['status', 'state', 'info', 'estado', 'statut', 'stato'],
  // The statement's own card or account (never the other party's: "Kontonummer" is either).
  account: [
    'card no.',
    'card no',
    'card number',
    'card',
    'account',
    'account number',
    'auftragskonto',
    'kartennummer',
    'rekening',
    'rekeningnummer',
    'iban/bban',
    'tarjeta',
    'numero de tarjeta',
    'cuenta',
  ],
  ignore: [
    'balance',
    'saldo',
    'kontostand',
    'running balance',
    'current balance',
    'solde',
    'saldo na trn',
    'available balance',
    'original amount',
    'originalbetrag',
    'betrag (fremdwahrung)',
    'fremdwahrung',
    'originalwahrung',
    'original currency',
    'local_currency',
    'transfer amount',
    'fee',
    'puvodni castka',
    'puvodni mena',
  ],
};

/**
 * The header folded for matching: lower case, no accents, single spaces, no quotes, and no
 * gender ending ("Zahlungsempfänger*in", "Zahlungspflichtige*r", "Empfänger:in").
 */
export function foldHeader(cell: string): string {
  return fold(cell)
    .replace(/["']/g, '')
    .replace(/[*:_/](in|innen|r)\b/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const LOOKUP = new Map<string, { role: Role; rank: number }>();
for (const [role, names] of Object.entries(NAMES) as Array<[Role, readonly string[]]>) {
  names.forEach((name, rank) => {
    if (!LOOKUP.has(name)) LOOKUP.set(name, { role, rank });
  });
}

/** The role a header names, and how strongly (lower rank wins), or null for a column we do not read. */
export function roleOfHeader(cell: string): { role: Role; rank: number } | null {
  const h = foldHeader(cell);
  if (h === '') return null;
  const exact = LOOKUP.get(h);
  if (exact) return exact;
  // "Betrag (EUR)", "Amount CZK", "Määrä EUROA", "Betrag (€)": a known name followed by a currency.
  const bare = h.replace(/\s*\(?([a-z]{3,5}|[€£$])\)?$/, '').trim();
  const loose = bare !== h ? LOOKUP.get(bare) : undefined;
  return loose ? { role: loose.role, rank: loose.rank + 0.5 } : null;
}

/** The ISO code a header carries ("Betrag (EUR)", "Amount CZK", "Määrä EUROA", "Betrag (€)"), if any. */
export function currencyOfHeader(cell: string): string | null {
  const m = /\(?\b([A-Z]{3})\)?\s*$/.exec(cell.trim());
  if (m?.[1]) return m[1];
  // "$" is several currencies' sign: the amounts' cells or the op decide those.
  if (/\(€\)\s*$/.test(cell)) return 'EUR';
  if (/\(£\)\s*$/.test(cell)) return 'GBP';
  return /\beuroa?\b/i.test(cell) ? 'EUR' : null;
}
