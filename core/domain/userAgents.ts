import { type Locale, t } from '../i18n/index.ts';

/**
 * A browser's User-Agent header as a person names it: the browser ("Chrome", "Firefox", "Safari",
 * "Edge"…) and the system it runs on ("Linux", "Windows", "macOS", "Android", "iOS"…), so a list of
 * signed-in browsers reads "Chrome on Linux" rather than "Mozilla/5.0 (X11; Linux x86_64)…". Either
 * is null when the header does not say. Pure string matching, in the order browsers name each other
 * (Edge's header also says Chrome and Safari; Chrome's also says Safari).
 */
export interface UserAgentNames {
  browser: string | null;
  os: string | null;
}

const BROWSERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\b(OPR|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\bYaBrowser\//, 'Yandex Browser'],
  [/\bVivaldi\//, 'Vivaldi'],
  [/\b(Firefox|FxiOS)\//, 'Firefox'],
  [/\bChromium\//, 'Chromium'],
  [/\b(HeadlessChrome|Chrome|CriOS)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bcurl\//, 'curl'],
];

const SYSTEMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(iPhone|iPod)\b/, 'iOS'],
  [/\biPad\b/, 'iPadOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\b(Macintosh|Mac OS X)\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

function first(text: string, table: ReadonlyArray<readonly [RegExp, string]>): string | null {
  for (const [pattern, name] of table) if (pattern.test(text)) return name;
  return null;
}

export function userAgentNames(userAgent: string | null | undefined): UserAgentNames {
  if (!userAgent) return { browser: null, os: null };
  return { browser: first(userAgent, BROWSERS), os: first(userAgent, SYSTEMS) };
}

/** "Chrome on Linux", "Chrome", "A browser on iOS", or null when the header says neither. */
export function browserName(locale: Locale, userAgent: string | null | undefined): string | null {
  const { browser, os } = userAgentNames(userAgent);
  if (browser && os) return t(locale, 'web.session.browser_on', { browser, os });
  if (browser) return browser;
  if (os) return t(locale, 'web.session.on_os', { os });
  return null;
}
