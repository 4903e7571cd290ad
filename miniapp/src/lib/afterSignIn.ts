import { BASE, parse } from './router.ts';

/**
 * The screen a person asked for before signing in (a link to `/app/subscriptions/<id>` opened in a
 * plain browser without a session), so that signing in lands there, not on the Overview.
 *
 * Kept in localStorage, not sessionStorage: the sign-in link from chat (`/web`, `exhale web`)
 * usually opens in a new tab, which starts with an empty sessionStorage. It is only a path of this
 * app, kept for as long as a sign-in code lives (10 minutes) and taken once. Only an in-app route
 * is ever kept or returned (same origin, under `/app/`, a screen the router knows, not the sign-in
 * screen itself), so nothing stored or read here can send the browser to another site.
 */
const KEY = 'exhale:after-sign-in';
const LIFETIME_MS = 10 * 60 * 1000;

/** `path` (pathname and search) when it is a screen of this app other than sign-in, else null. */
export function inAppRoute(path: string): string | null {
  // Reject what a browser could read as another host: `//host`, `/\host`, a scheme.
  if (!path.startsWith(`${BASE}/`) || /[\\\s]/.test(path) || path.includes('//')) return null;
  let url: URL;
  try {
    url = new URL(path, location.origin);
  } catch {
    return null;
  }
  if (url.origin !== location.origin || !url.pathname.startsWith(`${BASE}/`)) return null;
  const route = parse(url.pathname, url.search);
  if (route.name === 'signin') return null;
  // A path the router does not know lands on the Overview anyway: nothing worth keeping.
  if (route.name === 'overview' && url.pathname !== `${BASE}/`) return null;
  return url.pathname + url.search;
}

/** Keeps the screen open now (a deep link) to return to once signed in; the Overview is not kept. */
export function rememberScreen(path: string): void {
  const kept = inAppRoute(path);
  if (!kept || kept === `${BASE}/`) return;
  try {
    localStorage.setItem(KEY, JSON.stringify({ path: kept, at: Date.now() }));
  } catch {
    // Storage refused (a private window's quota): signing in then opens the Overview.
  }
}

/** The kept screen, once (it is removed), when still fresh and still an in-app route. */
export function takeScreen(): string | null {
  let raw: string | null;
  try {
    raw = localStorage.getItem(KEY);
    localStorage.removeItem(KEY);
  } catch {
    return null;
  }
  if (!raw) return null;
  try {
    const kept: unknown = JSON.parse(raw);
    if (
      typeof kept !== 'object' ||
      kept === null ||
      !('path' in kept) ||
      !('at' in kept) ||
      typeof kept.path !== 'string' ||
      typeof kept.at !== 'number'
    )
      return null;
    const age = Date.now() - kept.at;
    if (age < 0 || age > LIFETIME_MS) return null;
    return inAppRoute(kept.path);
  } catch {
    return null;
  }
}
