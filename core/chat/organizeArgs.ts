/**
 * Reading what people type after /categories, /tags and /methods, in English and Spanish: a verb
 * ("rename", "renombrar"), then names. Pure text work; the feature resolves the names.
 */

export type Verb = 'create' | 'rename' | 'delete' | 'merge' | 'tag' | 'untag';

const VERBS: Record<string, Verb> = {
  new: 'create',
  add: 'create',
  create: 'create',
  nueva: 'create',
  nuevo: 'create',
  crear: 'create',
  añadir: 'create',
  anadir: 'create',
  rename: 'rename',
  renombrar: 'rename',
  delete: 'delete',
  remove: 'delete',
  borrar: 'delete',
  eliminar: 'delete',
  merge: 'merge',
  fusionar: 'merge',
  unir: 'merge',
  tag: 'tag',
  etiquetar: 'tag',
  untag: 'untag',
  desetiquetar: 'untag',
  quitar: 'untag',
};

export interface Parsed {
  verb: Verb | null;
  /** What follows the verb (or everything, when there is none): a name, or names to split. */
  rest: string;
}

export function parseVerb(args: string): Parsed {
  const trimmed = args.trim();
  const [first = '', ...others] = trimmed.split(/\s+/);
  const verb = VERBS[first.toLowerCase()];
  return verb ? { verb, rest: others.join(' ') } : { verb: null, rest: trimmed };
}

/** "Old to New", "Viejo a Nuevo", "Old -> New", "Old → New": the two names, or null. */
export function splitPair(text: string, words: readonly string[]): [string, string] | null {
  const pattern = new RegExp(`\\s*(?:->|→|=>|=|\\s(?:${words.join('|')})\\s)\\s*`, 'i');
  const match = pattern.exec(text);
  if (!match) return null;
  const left = text.slice(0, match.index).trim();
  const right = text.slice(match.index + match[0].length).trim();
  return left && right ? [left, right] : null;
}

/** The separators of a rename ("to", "a") and of a merge ("into", "en"). */
export const RENAME_WORDS = ['to', 'as', 'a', 'como'] as const;
export const MERGE_WORDS = ['into', 'in', 'en', 'con', 'with'] as const;

/** A payment method's kind guessed from what people call it ("Joint Visa" is a card). */
export function kindOf(name: string): 'card' | 'bank' | 'paypal' | 'cash' | 'other' {
  const n = name.toLowerCase();
  if (/paypal/.test(n)) return 'paypal';
  if (/\b(cash|efectivo|metálico)\b/.test(n)) return 'cash';
  if (/\b(bank|banco|transfer|transferencia|iban|sepa|direct debit|domiciliación)\b/.test(n))
    return 'bank';
  if (/\b(card|tarjeta|visa|mastercard|amex|maestro|debit|débito|credit|crédito)\b/.test(n))
    return 'card';
  return 'other';
}

export interface Named {
  id: string;
  name: string;
}

/**
 * The records a typed name means: the one named exactly (ignoring capitals and accents), else
 * those whose name starts with it, else those containing it. Several: the member picks.
 */
export function matchName<T extends Named>(items: readonly T[], typed: string): T[] {
  const fold = (s: string) =>
    s
      .normalize('NFD')
      .replace(/\p{Diacritic}/gu, '')
      .toLowerCase()
      .trim();
  const wanted = fold(typed);
  if (wanted === '') return [];
  const exact = items.filter((i) => fold(i.name) === wanted);
  if (exact.length > 0) return exact;
  const prefix = items.filter((i) => fold(i.name).startsWith(wanted));
  if (prefix.length > 0) return prefix;
  return items.filter((i) => fold(i.name).includes(wanted));
}

/**
 * "work Netflix" with tags ["work", "side project"]: the longest existing tag name the text
 * starts with, then the rest; with none, the first word is a new tag's name.
 */
export function splitTagAndName(
  text: string,
  tags: readonly Named[],
): { tag: string; name: string } | null {
  const lower = text.toLowerCase();
  const known = [...tags]
    .sort((a, b) => b.name.length - a.name.length)
    .find((tag) => lower.startsWith(`${tag.name.toLowerCase()} `));
  if (known)
    return {
      tag: known.name,
      name: text
        .slice(known.name.length)
        .trim()
        .replace(/^(on|en)\s+/i, ''),
    };
  const [first = '', ...rest] = text.trim().split(/\s+/);
  const name = rest.join(' ').replace(/^(on|en)\s+/i, '');
  return first && name ? { tag: first, name } : null;
}
