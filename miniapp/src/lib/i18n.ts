import { ref } from 'vue';

import en from '../../../core/i18n/locales/en/web.json';
import enPolish from '../../../core/i18n/locales/en/webPolish.json';
import es from '../../../core/i18n/locales/es/web.json';
import esPolish from '../../../core/i18n/locales/es/webPolish.json';
import enAdd from '../../../core/i18n/locales/en/webadd.json';
import esAdd from '../../../core/i18n/locales/es/webadd.json';
import enAttention from '../../../core/i18n/locales/en/webAttention.json';
import esAttention from '../../../core/i18n/locales/es/webAttention.json';
import enDemo from '../../../core/i18n/locales/en/webDemo.json';
import esDemo from '../../../core/i18n/locales/es/webDemo.json';

/**
 * The app's texts: `web.ui.*` keys of core/i18n/locales/{en,es}/web.json and webPolish.json (the
 * field sentences of the app's own input rules; the core's tests check
 * both have the same keys and placeholders). The locale is the member's once /api/me answered,
 * the browser's (or the Telegram user's) before that.
 */
export type Locale = 'en' | 'es';
// web.json, webPolish.json, webadd.json, webAttention.json and webDemo.json: each area's texts in their own file.
const catalogs: Record<Locale, Record<string, string>> = {
  en: { ...en, ...enPolish, ...enAdd, ...enAttention, ...enDemo },
  es: { ...es, ...esPolish, ...esAdd, ...esAttention, ...esDemo },
};

export const locale = ref<Locale>(pickLocale(navigator.language));

export function pickLocale(tag: string | null | undefined): Locale {
  return (tag ?? '').toLowerCase().startsWith('es') ? 'es' : 'en';
}

export function setLocale(next: Locale): void {
  locale.value = next;
  document.documentElement.lang = next;
}

/** Renders `web.<key>` with `{name}` placeholders; a missing key shows itself so it is noticed. */
export function t(key: string, params: Record<string, string | number> = {}): string {
  const full = `web.ui.${key}`;
  const template = catalogs[locale.value][full] ?? catalogs.en[full] ?? full;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/**
 * A text about a count, in its plural form: `web.<key>.one` for one, `web.<key>.other` for any
 * other number ("1 subscription", "3 subscriptions"; "1 suscripción", "0 suscripciones"), with
 * the count as `{n}` unless `params` says otherwise.
 */
export function tn(key: string, n: number, params: Record<string, string | number> = {}): string {
  return t(`${key}.${n === 1 ? 'one' : 'other'}`, { n, ...params });
}
