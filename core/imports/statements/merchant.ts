import { fold } from './dates.ts';
import { knownService } from './knownServices.ts';

/**
 * The merchant a statement line is about, as a key that is the same on every line of one
 * subscription: "PAYPAL *NETFLIX 4029357733", "NETFLIX.COM 866-579-7172 CA" and "Netflix
 * Amsterdam NL" are all "netflix". Accents and case are folded; payment processors' prefixes
 * (PayPal, Square, SumUp, Zettle, Apple, Google…), banks' booking words (SEPA direct debit, card
 * payment), card numbers, dates, times, reference numbers (any token with a digit), web suffixes,
 * and city and country names at the end are removed; the key is the first two words left.
 */

const PREFIXES =
  /^(paypal|pp|sq|sumup|zettle|izettle|sp|tst|apl|apple|google|goog|amzn|pos|ec|cb|crv|vir|prlv|sepa|carte|card|visa|mc|dd|bg|fe|og|ls|bl|ccd|ach|debit|tarj|tarjeta|lastschrift|folgelastschrift|erstlastschrift|basislastschrift|kartenzahlung|kartenumsatz|abbuchung|einzugsermachtigung|dauerauftrag|domiciliacion|recibo|compra|pago|adeudo|betaalautomaat|incasso|machtiging|prelevement|paiement|achat|addebito|pagamento|platba|inkaso|purchase|payment|recurring|direct|to|from|transfer|sepa-basislastschrift|sepa-lastschrift)\b[\s*:./-]*/;

/** City and country words that banks append to card lines; removed only after the first word. */
const PLACES = new Set([
  'london',
  'dublin',
  'amsterdam',
  'berlin',
  'munchen',
  'hamburg',
  'paris',
  'madrid',
  'barcelona',
  'wien',
  'vienna',
  'milano',
  'roma',
  'lisboa',
  'stockholm',
  'warszawa',
  'praha',
  'budapest',
  'luxembourg',
  'lux',
  'cork',
  'sydney',
  'new',
  'york',
  'san',
  'francisco',
  'los',
  'gatos',
  'cupertino',
  'seattle',
  'itunes.com',
  'help',
  'bill',
  'billing',
  'gbr',
  'uk',
  'gb',
  'irl',
  'ie',
  'nld',
  'nl',
  'deu',
  'de',
  'fra',
  'fr',
  'esp',
  'es',
  'ita',
  'it',
  'usa',
  'us',
  'ca',
  'au',
  'aus',
  'at',
  'aut',
  'be',
  'bel',
  'ch',
  'che',
  'se',
  'swe',
  'pl',
  'pol',
  'cz',
  'cze',
  'hu',
  'hun',
  'pt',
  'prt',
  'lu',
  'espana',
  'deutschland',
  'france',
  'italia',
  'nederland',
  'ireland',
  'belgique',
  'belgie',
  'osterreich',
  'schweiz',
  'suisse',
  'portugal',
  'polska',
  'sverige',
  'danmark',
  'norge',
  'suomi',
  'eu',
  'int',
  'www',
  'com',
]);

/**
 * Words that are never a merchant's: articles, company forms, the booking words banks put
 * after a merchant's name (a reference, SEPA's EREF/MREF/CRED/SVWZ tags, a mandate, an IBAN, a
 * "RECURNG PMT" mark), and the words of a subscription's own reference ("Mitgliedsbeitrag",
 * "Monatsabo", "membership"): "NETFLIX.COM, IE ref 0042" is Netflix's, not "Netflix Ref", and
 * "McFit Mitgliedsbeitrag" is McFit's.
 */
const STOP = new Set([
  'international',
  'intl',
  'mitgliedsbeitrag',
  'mitgliedschaft',
  'monatsbeitrag',
  'monatsabo',
  'abo',
  'abonnement',
  'subscription',
  'membership',
  'recurng',
  'recurring',
  'pmt',
  'pymt',
  'ref',
  'ref.',
  'refs',
  'reference',
  'referenz',
  'referencia',
  'referentie',
  'kenmerk',
  'eref',
  'mref',
  'cred',
  'svwz',
  'abwa',
  'abwe',
  'kref',
  'mandat',
  'mandate',
  'mandatsref',
  'mandatsreferenz',
  'iban',
  'bic',
  'the',
  'and',
  'der',
  'die',
  'das',
  'de',
  'la',
  'el',
  'le',
  'gmbh',
  'ag',
  'ltd',
  'limited',
  'inc',
  'llc',
  'sa',
  'sl',
  'bv',
  'b.v',
  'nv',
  'srl',
  'spa',
  'sarl',
  'sas',
  'ab',
  'as',
  'oy',
  'kg',
  'co',
]);

/**
 * Apple's and Google's own bills: the brand is a processor prefix on other merchants' lines
 * ("GOOGLE *Spotify"), but "APPLE.COM/BILL 866-712-7753 CA" or "GOOGLE *Google One" is the
 * brand's own product, and would otherwise have no key (or "ca", "one").
 */
const BRAND_PRODUCTS: Readonly<Record<string, ReadonlySet<string>>> = {
  apple: new Set(['music', 'tv', 'one', 'arcade', 'icloud']),
  google: new Set(['one', 'storage']),
};

/** A line's words as a key reads them: folded, web suffixes and processor prefixes taken off. */
function lineWords(text: string): { words: string[]; brand: string | null } {
  let s = fold(text)
    .replace(/https?:\/\//g, '')
    .replace(/\b(www\.)/g, '')
    // "netflix.com", "spotify.se/help": keep the name before the web suffix.
    .replace(
      /([a-z0-9])\.(com\.au|co\.uk|com|net|org|co|io|tv|de|es|fr|nl|se|it|eu|uk|ie|be|at|ch|pl|cz|app)\b(\/\S*)?/g,
      '$1',
    )
    .replace(/[*#_|/\\()[\]{}"'`,;:+=]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  // "T-MOBILE RECURNG PMTT-MOBILE": the bank's recurring mark ends the merchant's name (what
  // follows is the mark, a reference, or the name again glued to it by a truncated field).
  s = s.replace(/(\S)\s+(recurng|recurring)\b.*$/, '$1');
  let brand: string | null = null;
  for (let i = 0; i < 4; i++) {
    const removed = PREFIXES.exec(s)?.[1] ?? null;
    const next = s.replace(PREFIXES, '').trim();
    if (next === s) break;
    if (removed && removed in BRAND_PRODUCTS) brand = removed;
    s = next;
  }
  const words = s
    .split(' ')
    .map((w) => w.replace(/^[.-]+|[.-]+$/g, ''))
    .filter((w) => w !== '');
  return { words, brand };
}

export function merchantKey(text: string): string {
  const { words: all, brand } = lineWords(text);
  const words = all.filter((w) => !/\d/.test(w) && !STOP.has(w));
  const kept = words.filter((w, i) => i === 0 || !PLACES.has(w));
  if (brand) {
    const first = kept[0];
    if (first === undefined || PLACES.has(first)) return brand;
    if (BRAND_PRODUCTS[brand]?.has(first)) return `${brand} ${first}`;
  }
  return kept.slice(0, 2).join(' ');
}

/**
 * The merchant key of a transaction: its payee's, else its text's. An Apple or Google bill
 * ("APPLE.COM/BILL") names its product in the text ("ICLOUD 2TB"): that one, when it is one of
 * the brand's products or a known service, so iCloud is not "Apple".
 */
export function transactionKey(payee: string | null, memo: string): string {
  const key = (payee === null ? '' : merchantKey(payee)) || merchantKey(memo);
  if (payee !== null && key in BRAND_PRODUCTS) {
    const product = merchantKey(`${payee} ${memo}`);
    if (product.startsWith(`${key} `) || (product !== key && knownService(product))) return product;
  }
  return key;
}

/** Brands that capitals alone would misspell, by the word of a key. */
const SPELLED: Readonly<Record<string, string>> = {
  itunes: 'iTunes',
  icloud: 'iCloud',
  youtube: 'YouTube',
  youtubepremium: 'YouTube Premium',
  disneyplus: 'Disney+',
  paramountplus: 'Paramount+',
  hbo: 'HBO',
  hbomax: 'HBO Max',
  dazn: 'DAZN',
  nytimes: 'NYTimes',
  nyt: 'NYT',
  chatgpt: 'ChatGPT',
  openai: 'OpenAI',
  github: 'GitHub',
  playstation: 'PlayStation',
  tv: 'TV',
  bbc: 'BBC',
  ard: 'ARD',
  zdf: 'ZDF',
  ee: 'EE',
  o2: 'O2',
};

/** A word in one case as a name: capitals at the start of each part ("t-mobile" → "T-Mobile"). */
function capitalised(word: string): string {
  return word
    .toLowerCase()
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('-');
}

/**
 * A person-facing name for a key: "netflix" → "Netflix", "amazon prime" → "Amazon Prime",
 * "t-mobile" → "T-Mobile", "itunes" → "iTunes".
 */
export function displayName(key: string): string {
  return key
    .split(' ')
    .map((w) => SPELLED[w] ?? capitalised(w))
    .join(' ');
}

const WEB_SUFFIX =
  /\.(com\.au|co\.uk|com|net|org|co|io|tv|de|es|fr|nl|se|it|eu|uk|ie|be|at|ch|pl|cz|app)$/i;

/**
 * The name of a key as the statement's text spells it: its accents ("GIMNASIO AÑIL" → "Gimnasio
 * Añil", where the key says "gimnasio anil"), and a merchant's own mixed case ("McFit",
 * "iCloud"); a word in capitals only, as most banks print, is capitalised. A word of the key the
 * text does not hold as a word is named as `displayName` would.
 */
export function merchantName(key: string, text: string): string {
  const spelled = new Map<string, string>();
  for (const raw of text.split(/[\s*#_|/\\()[\]{}"'`,;:+=]+/)) {
    const word = raw
      .replace(/^www\./i, '')
      .replace(WEB_SUFFIX, '')
      .replace(/^[.-]+|[.-]+$/g, '');
    const folded = fold(word);
    if (word !== '' && !spelled.has(folded)) spelled.set(folded, word);
  }
  return key
    .split(' ')
    .map((w) => {
      const own = SPELLED[w];
      if (own) return own;
      const word = spelled.get(w) ?? w;
      const mixed = word !== word.toLowerCase() && word !== word.toUpperCase();
      return mixed ? word : capitalised(word);
    })
    .join(' ');
}

/**
 * Words that end a name where a key would skip them: what banks print after a merchant's name
 * about the payment itself ("ADAC MOTORWELT MITGLIED", "GYM LONDON MONTHLY FEE").
 */
const AFTER_NAME = new Set([
  'mitglied',
  'beitrag',
  'monatlich',
  'monthly',
  'annual',
  'yearly',
  'jahresbeitrag',
  'payment',
  'zahlung',
  'lastschrift',
  'sepa',
  'direct',
  'debit',
  'cuota',
  'recibo',
  'factura',
  'invoice',
  'rechnung',
  'fee',
  'gebuhr',
  'order',
  'bestellung',
  'pago',
  'compra',
  'purchase',
  'card',
  'karte',
  'visa',
  'mastercard',
]);

/** Words a merchant's name may have at most, its key's two included. */
const NAME_WORDS = 4;

/**
 * The words that follow a two-word key in one line's text ("urban sports" in "URBAN SPORTS CLUB
 * BERLIN" → ["club"]): up to the first number, booking or company word, or place.
 */
function wordsAfter(key: readonly string[], text: string): string[] {
  const { words } = lineWords(text);
  let at = -1;
  for (const w of key) {
    at = words.indexOf(w, at + 1);
    if (at < 0) return [];
  }
  const after: string[] = [];
  for (const w of words.slice(at + 1)) {
    if (
      /\d/.test(w) ||
      STOP.has(w.replace(/\./g, '')) ||
      PLACES.has(w) ||
      AFTER_NAME.has(w) ||
      key.length + after.length >= NAME_WORDS
    )
      break;
    after.push(w);
  }
  return after;
}

/**
 * A merchant's name from its key and the texts that named it (`named`: its payee, else its memo,
 * of a few of its lines), spelled as `text` (a line's whole text) spells it (`merchantName`). A key keeps two words, enough to tell merchants
 * apart; the name keeps the words after them that every one of two or more lines repeats, so
 * "URBAN SPORTS CLUB BERLIN" each month is Urban Sports Club, not "Urban Sports". One line
 * alone adds nothing: what follows could be that month's reference.
 */
export function merchantNameOf(key: string, named: readonly string[], text: string): string {
  const words = key.split(' ');
  const [first = [], ...others] = words.length === 2 ? named.map((t) => wordsAfter(words, t)) : [];
  let common = others.length === 0 ? [] : first;
  for (const after of others) {
    let same = 0;
    while (same < common.length && common[same] === after[same]) same += 1;
    common = common.slice(0, same);
  }
  return merchantName([...words, ...common].join(' '), text);
}
