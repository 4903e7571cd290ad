import { readdirSync, readFileSync } from 'node:fs';

/** The languages a person can read Exhale in. English is the fallback. */
export const LOCALES = ['en', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

export type TextParams = Record<string, string | number>;

/** A translatable text: a key into the locale files and its parameters, rendered at each edge. */
export interface Text {
  key: string;
  params?: TextParams;
}

/**
 * Each locale is a folder of JSON files (one per area: core.json, chat.json…), merged at load.
 * A key defined twice is a mistake: it throws when the locale loads (test/core/i18n loads each).
 */
function loadLocale(locale: Locale): Record<string, string> {
  const dir = new URL(`./locales/${locale}/`, import.meta.url);
  const merged: Record<string, string> = {};
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const texts = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as Record<string, string>;
    for (const [key, value] of Object.entries(texts)) {
      if (key in merged) throw new Error(`text key ${key} is defined twice in locale ${locale}`);
      merged[key] = value;
    }
  }
  return merged;
}

/**
 * The catalogs loaded so far: English at start (the fallback of every text), another locale when
 * a text is first asked in it (a start reads only English's files).
 */
const loaded: Partial<Record<Locale, Record<string, string>>> = {};
const english = loadLocale('en');
loaded.en = english;

function catalog(locale: Locale): Record<string, string> {
  return (loaded[locale] ??= loadLocale(locale));
}

/** Keys of the English catalog; every other locale must define the same set (a test checks it). */
export const TEXT_KEYS = Object.keys(english);

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Picks the closest supported locale for a language tag such as `es-AR`; English otherwise. */
export function localeFrom(tag: string | null | undefined): Locale {
  const base = (tag ?? '').toLowerCase().split(/[-_]/)[0];
  return isLocale(base) ? base : 'en';
}

/**
 * Renders a text in a locale. `{name}` placeholders take their parameter; a key missing from the
 * locale falls back to English, and a key missing everywhere renders as itself so it is noticed.
 */
export function t(locale: Locale, key: string, params: TextParams = {}): string {
  const template = catalog(locale)[key] ?? english[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

export function render(locale: Locale, text: Text): string {
  return t(locale, text.key, text.params);
}

export function catalogFor(locale: Locale): Readonly<Record<string, string>> {
  return catalog(locale);
}
