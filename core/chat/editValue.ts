import type { Subscription } from '../domain/schemas.ts';
import { searchKey } from '../domain/text.ts';
import type { TextParams } from '../i18n/index.ts';
import { readCycle, readDate, readPrice, readTrialEnd } from './parseAdd.ts';
import { EDIT_FIELDS, type EditField } from './subscriptionActions.ts';

/**
 * One field of a subscription as a member types it, read with the same parsers as /add, into the
 * arguments of `update_subscription`. A price with a date ("17.99 from March") is a price change
 * from that day (`price_effective_date`), never a rewrite of earlier charges. Pure: the caller
 * gives today, the household's currency and the members' names.
 */

/** `unsure`: a price that reads two ways ("1.200"), to be said how it was read. */
export type EditRead =
  | { ok: true; args: Record<string, unknown>; unsure?: boolean }
  | { ok: false; key: string; params?: TextParams };

/** Words that clear an optional field: "none", "ninguna", "-". */
const NONE = new Set([
  'none',
  'no',
  'nothing',
  'clear',
  '-',
  'ninguna',
  'ninguno',
  'nada',
  'quitar',
]);

/**
 * What names a field in `/edit Netflix price 17.99`, in English and Spanish: the words and phrases
 * the cards themselves show (the Edit buttons, "Billing date", "Fecha de cobro"; the card's lines,
 * "Next charge", "Payment method"; the preview's, "first charge", "trial ends") and the obvious
 * synonyms. Compared ignoring case and accents; the longest phrase wins ("fecha de pago" is the
 * date, "pago" alone the payment method).
 */
const FIELD_NAMES: Readonly<Record<EditField, readonly string[]>> = {
  name: ['name', 'rename', 'new name', 'nombre', 'nuevo nombre'],
  price: [
    'price',
    'amount',
    'cost',
    'new price',
    'precio',
    'importe',
    'coste',
    'costo',
    'nuevo precio',
  ],
  cycle: ['cycle', 'frequency', 'billing cycle', 'ciclo', 'frecuencia', 'ciclo de cobro'],
  date: [
    'date',
    'day',
    'billing',
    'billing date',
    'billing day',
    'charge date',
    'charge day',
    'next charge',
    'first charge',
    'due date',
    'renewal date',
    'fecha',
    'dia',
    'cobro',
    'fecha de cobro',
    'dia de cobro',
    'fecha de pago',
    'dia de pago',
    'proximo cobro',
    'primer cobro',
    'primer cargo',
    'fecha de renovacion',
  ],
  trial: [
    'trial',
    'free trial',
    'trial end',
    'trial ends',
    'end of trial',
    'prueba',
    'prueba gratis',
    'prueba gratuita',
    'periodo de prueba',
    'fin de la prueba',
    'fin de prueba',
    'la prueba termina',
  ],
  category: ['category', 'categoria'],
  method: [
    'method',
    'payment',
    'payment method',
    'paid with',
    'metodo',
    'pago',
    'metodo de pago',
    'medio de pago',
    'forma de pago',
  ],
  tags: ['tags', 'tag', 'etiquetas', 'etiqueta'],
  notes: ['notes', 'note', 'notas', 'nota'],
  shares: ['shares', 'split', 'cost shares', 'shared', 'reparto', 'compartida', 'compartido'],
  private: ['private', 'privacy', 'visibility', 'privada', 'privado', 'privacidad', 'visibilidad'],
};

/** What makes a subscription private ("yes", "privada") or shared again ("no", "compartida"). */
const PRIVATE_WORDS: Readonly<Record<string, boolean>> = {
  yes: true,
  y: true,
  si: true,
  true: true,
  on: true,
  private: true,
  privada: true,
  privado: true,
  'only me': true,
  'solo yo': true,
  no: false,
  n: false,
  false: false,
  off: false,
  shared: false,
  share: false,
  public: false,
  compartida: false,
  compartido: false,
  publica: false,
  publico: false,
  'con el hogar': false,
  'with the household': false,
};

/** Each phrase's words, as compared (`searchKey`), and its field; the longest first. */
const FIELD_PHRASES: ReadonlyArray<{ words: string[]; field: EditField }> = EDIT_FIELDS.flatMap(
  (field) => FIELD_NAMES[field].map((phrase) => ({ words: searchKey(phrase).split(' '), field })),
).sort((a, b) => b.words.length - a.words.length);

/** Glue words after a field's name: "to", "a", "is", "es", "=", ":". */
const GLUE = new Set(['de', 'to', 'a', 'is', 'es', 'as', 'como', '=', ':']);

/** A word as field names are compared: case and accents aside, a trailing colon ("Next charge:") too. */
const wordKey = (token: string): string => searchKey(token).replace(/(.):$/, '$1');

/** `Netflix price 17.99 from March` → the name, the field and its value (each possibly empty). */
export function splitEdit(line: string): { name: string; field: EditField | null; value: string } {
  const tokens = line.trim().split(/\s+/).filter(Boolean);
  const keys = tokens.map(wordKey);
  for (let i = 1; i < tokens.length; i += 1) {
    const found = FIELD_PHRASES.find((p) => p.words.every((w, k) => keys[i + k] === w));
    if (!found) continue;
    let at = i + found.words.length;
    while (at < tokens.length - 1 && GLUE.has(keys[at] ?? '')) at += 1;
    return {
      name: tokens.slice(0, i).join(' '),
      field: found.field,
      value: tokens.slice(at).join(' '),
    };
  }
  return { name: tokens.join(' '), field: null, value: '' };
}

const isNone = (text: string): boolean => NONE.has(text.trim().toLowerCase());

/** "Ana 60, Ben 40", "Ana 50% Ben 50%": members by the start of their name, percents as said. */
function readShares(
  text: string,
  members: ReadonlyMap<string, string>,
): Array<{ member_id: string; percent: string }> | null {
  const parts = text.split(/[,;]|\s+(?=[^\d\s%]+\s+\d)/).map((p) => p.trim());
  const shares: Array<{ member_id: string; percent: string }> = [];
  for (const part of parts.filter(Boolean)) {
    const m = /^(.+?)\s*:?\s+(\d{1,3}(?:[.,]\d{1,2})?)\s*%?$/u.exec(part);
    if (!m) return null;
    const who = searchKey(m[1] ?? '');
    const found = [...members].filter(([, name]) => searchKey(name).startsWith(who));
    const member = found.length === 1 ? found[0] : undefined;
    if (!member) return null;
    shares.push({ member_id: member[0], percent: (m[2] ?? '').replace(',', '.') });
  }
  return shares.length > 0 ? shares : null;
}

/** Reads `text` as the new value of `field` for `sub`. */
export function readEdit(
  sub: Pick<Subscription, 'id' | 'name' | 'currency'>,
  field: EditField,
  text: string,
  context: { today: string; members: ReadonlyMap<string, string> },
): EditRead {
  const value = text.trim();
  const id = sub.id;
  const bad = (key: string): EditRead => ({
    ok: false,
    key: `chat.sub.bad.${key}`,
    params: { text: value.slice(0, 40), name: sub.name },
  });
  if (value.length === 0) return bad(field);
  switch (field) {
    case 'name':
      return { ok: true, args: { id, name: value } };
    case 'price': {
      const price = readPrice(value, context.today, sub.currency);
      if (!price) return bad('price');
      return {
        ok: true,
        args: {
          id,
          amount: price.amount,
          ...(price.currency && price.currency !== sub.currency
            ? { currency: price.currency }
            : {}),
          ...(price.from ? { price_effective_date: price.from } : {}),
        },
        ...(price.unsure ? { unsure: true } : {}),
      };
    }
    case 'cycle': {
      const cycle = readCycle(value);
      return cycle ? { ok: true, args: { id, cycle } } : bad('cycle');
    }
    case 'date': {
      const date = readDate(value, context.today);
      return date ? { ok: true, args: { id, first_charge_date: date } } : bad('date');
    }
    case 'trial': {
      if (isNone(value)) return { ok: true, args: { id, status: 'active', trial_ends_on: null } };
      const end = readTrialEnd(value, context.today);
      return end ? { ok: true, args: { id, status: 'trial', trial_ends_on: end } } : bad('trial');
    }
    case 'category':
      return isNone(value)
        ? { ok: true, args: { id, category_id: null } }
        : { ok: true, args: { id, category: value } };
    case 'method':
      return isNone(value)
        ? { ok: true, args: { id, payment_method_id: null } }
        : { ok: true, args: { id, payment_method: value } };
    case 'tags': {
      if (isNone(value)) return { ok: true, args: { id, tags: [] } };
      const tags = value
        .split(/[,;]|\s+(?=#)/)
        .map((g) => g.trim().replace(/^#/, ''))
        .filter(Boolean);
      return tags.length > 0 ? { ok: true, args: { id, tags } } : bad('tags');
    }
    case 'notes':
      return { ok: true, args: { id, notes: isNone(value) ? null : value } };
    case 'shares': {
      if (isNone(value)) return { ok: true, args: { id, shares: [] } };
      const shares = readShares(value, context.members);
      return shares ? { ok: true, args: { id, shares } } : bad('shares');
    }
    case 'private': {
      const said = PRIVATE_WORDS[searchKey(value).replace(/[.!]+$/, '')];
      return said === undefined ? bad('private') : { ok: true, args: { id, private: said } };
    }
    default: {
      const unreachable: never = field;
      return unreachable;
    }
  }
}
