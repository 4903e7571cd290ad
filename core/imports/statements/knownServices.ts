import type { Cycle } from '../../domain/cycles.ts';

/**
 * Well-known subscription services, so a statement of one month (where nothing can repeat yet)
 * still shows them: a merchant seen once whose `merchantKey` is one of these is a candidate, with
 * a lower confidence than a repeated series (see detect.ts). Curated by hand: each entry is a
 * service sold only (or, for Apple's and Google's bills, mostly) by subscription, never a shop
 * whose name also sells one (plain "amazon", "kindle", "google play", "nintendo of europe" are not
 * here). `keys` are merchantKey outputs: a key matches when it is one of them, or, for `word`, when
 * its first word is that word (a key keeps two words: "spotify ab", "netflix international").
 */

export interface KnownService {
  /** The first word of the key, for names distinctive enough on their own. */
  word?: string;
  /** Whole keys (two words, or one when the statement has only that). */
  keys?: readonly string[];
  /** The usual billing cycle; monthly when not given. */
  cycle?: Cycle;
}

const MONTHLY: Cycle = { unit: 'month', every: 1 };

export const KNOWN_SERVICES: readonly KnownService[] = [
  { word: 'netflix' },
  { word: 'spotify' },
  { word: 'disney', keys: ['disneyplus'] },
  { word: 'youtubepremium', keys: ['youtube premium', 'youtube music'] },
  { keys: ['amazon prime', 'prime video', 'amazonprime'] },
  {
    keys: [
      'apple',
      'apple music',
      'apple tv',
      'apple one',
      'apple arcade',
      'apple icloud',
      'itunes',
      'icloud',
    ],
  },
  { keys: ['google one', 'google storage'] },
  { keys: ['microsoft', 'microsoft office'] },
  { word: 'adobe' },
  { word: 'dropbox' },
  { keys: ['hbo max', 'hbo', 'hbomax'] },
  { word: 'hulu' },
  { word: 'paramount', keys: ['paramountplus'] },
  { word: 'audible' },
  { word: 'xbox', keys: ['microsoft xbox'] },
  { keys: ['playstation plus', 'playstation network', 'playstation'] },
  { keys: ['nintendo switch', 'nintendo online'], cycle: { unit: 'year', every: 1 } },
  { word: 'chatgpt', keys: ['openai', 'openai chatgpt'] },
  { word: 'anthropic', keys: ['claude.ai', 'claude.ai subscription', 'claude'] },
  { word: 'github' },
  { keys: ['notion', 'notion labs'] },
  { word: 'duolingo' },
  { word: 'nytimes', keys: ['nyt digital', 'new times'] },
  { word: 'patreon' },
  { word: 'deezer' },
  { word: 'crunchyroll' },
  { word: 'dazn' },
];

/**
 * Names a key would spell wrong, each the service's own ("XBOX GAME PASS" keeps two words, "xbox
 * game"). Each name's own key is the key again, or shares its first word: an imported one is
 * known as tracked when the next statement shows it.
 */
const NAMES: Readonly<Record<string, string>> = {
  'xbox game': 'Xbox Game Pass',
  'disney plus': 'Disney+',
};

/** The service's own name for a merchant key, or null when the key names itself well. */
export function knownName(key: string): string | null {
  return NAMES[key] ?? null;
}

const byKey = new Map<string, KnownService>();
const byWord = new Map<string, KnownService>();
for (const s of KNOWN_SERVICES) {
  for (const k of s.keys ?? []) byKey.set(k, s);
  if (s.word) byWord.set(s.word, s);
}

/** The known service a merchant key is, with its usual cycle; null for any other merchant. */
export function knownService(key: string): { cycle: Cycle } | null {
  const s = byKey.get(key) ?? byWord.get(key.split(' ')[0] ?? '');
  return s ? { cycle: s.cycle ?? MONTHLY } : null;
}
