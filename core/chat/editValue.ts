import type { Subscription } from '../domain/schemas.ts';
import { searchKey } from '../domain/text.ts';
import type { TextParams } from '../i18n/index.ts';
import { readCycle, readDate, readPrice, readTrialEnd } from './parseAdd.ts';
import type { EditField } from './subscriptionActions.ts';

/**
 * One field of a subscription as a member types it, read with the same parsers as /add, into the
 * arguments of `update_subscription`. A price with a date ("17.99 from March") is a price change
 * from that day (`price_effective_date`), never a rewrite of earlier charges. Pure: the caller
 * gives today, the household's currency and the members' names.
 */

export type EditRead =
  { ok: true; args: Record<string, unknown> } | { ok: false; key: string; params?: TextParams };

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

/** The words that name a field in `/edit Netflix price 17.99` (English and Spanish). */
export const FIELD_WORDS: Readonly<Record<string, EditField>> = {
  name: 'name',
  rename: 'name',
  nombre: 'name',
  price: 'price',
  amount: 'price',
  cost: 'price',
  precio: 'price',
  importe: 'price',
  coste: 'price',
  cycle: 'cycle',
  frequency: 'cycle',
  ciclo: 'cycle',
  frecuencia: 'cycle',
  date: 'date',
  day: 'date',
  billing: 'date',
  fecha: 'date',
  día: 'date',
  dia: 'date',
  cobro: 'date',
  trial: 'trial',
  prueba: 'trial',
  category: 'category',
  categoría: 'category',
  categoria: 'category',
  method: 'method',
  payment: 'method',
  método: 'method',
  metodo: 'method',
  pago: 'method',
  tags: 'tags',
  tag: 'tags',
  etiquetas: 'tags',
  etiqueta: 'tags',
  notes: 'notes',
  note: 'notes',
  notas: 'notes',
  nota: 'notes',
  shares: 'shares',
  split: 'shares',
  reparto: 'shares',
};

/** Glue words after a field's name: "payment method", "método de pago", "to", "a". */
const GLUE = new Set(['method', 'de', 'to', 'a', 'is', 'es', 'as', 'como', '=', ':']);

/** `Netflix price 17.99 from March` → the name, the field and its value (each possibly empty). */
export function splitEdit(line: string): { name: string; field: EditField | null; value: string } {
  const tokens = line.trim().split(/\s+/).filter(Boolean);
  for (let i = 1; i < tokens.length; i += 1) {
    const field = FIELD_WORDS[(tokens[i] ?? '').toLowerCase()];
    if (!field) continue;
    let at = i + 1;
    while (at < tokens.length - 1 && GLUE.has((tokens[at] ?? '').toLowerCase())) at += 1;
    // "método de pago": the field's second word.
    if (field === 'method' && FIELD_WORDS[(tokens[at] ?? '').toLowerCase()] === 'method') at += 1;
    return { name: tokens.slice(0, i).join(' '), field, value: tokens.slice(at).join(' ') };
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
    default: {
      const unreachable: never = field;
      return unreachable;
    }
  }
}
