import { computed, ref } from 'vue';

/**
 * The client routes, hash-free paths under /app/ (docs/miniapp.md): Exhale answers index.html for
 * each, so a reload stays on its screen. History API only; no router library.
 */
export type RouteName =
  | 'overview'
  | 'subscriptions'
  | 'subscription'
  | 'calendar'
  | 'insights'
  | 'activity'
  | 'ask'
  | 'settings'
  | 'connect'
  | 'import'
  | 'add'
  | 'more'
  | 'signin'
  | 'join';

export interface Route {
  name: RouteName;
  id: string | null;
  query: URLSearchParams;
}

export const BASE = '/app';

const SIMPLE: Record<string, RouteName> = {
  '': 'overview',
  subscriptions: 'subscriptions',
  calendar: 'calendar',
  insights: 'insights',
  activity: 'activity',
  ask: 'ask',
  settings: 'settings',
  connect: 'connect',
  more: 'more',
  signin: 'signin',
  join: 'join',
  import: 'import',
  add: 'add',
};

export function parse(pathname: string, search = ''): Route {
  const rest = pathname.startsWith(BASE) ? pathname.slice(BASE.length) : pathname;
  const parts = rest.split('/').filter(Boolean);
  const query = new URLSearchParams(search);
  const [head = '', id] = parts;
  if (head === 'subscriptions' && id)
    return { name: 'subscription', id: decodeURIComponent(id), query };
  if (head === 'import' && id) return { name: 'import', id: decodeURIComponent(id), query };
  return { name: SIMPLE[head] ?? 'overview', id: null, query };
}

/**
 * A hash link (`/app/#/subscriptions/<id>`, as other apps write them) names the screen of its
 * path: the address is rewritten to `/app/subscriptions/<id>` before the first route is read.
 * Telegram's own hash (`#tgWebAppData=…`) does not start with `#/` and is left alone.
 */
function pathFromHash(): void {
  if (!location.hash.startsWith('#/')) return;
  if (location.pathname !== BASE && location.pathname !== `${BASE}/`) return;
  const rest = location.hash.slice(2).replace(/^\/+/, '');
  history.replaceState(history.state, '', `${BASE}/${rest}`);
}
pathFromHash();

export const route = ref<Route>(parse(location.pathname, location.search));
/** How many screens were pushed on top of the first one (the back button shows when > 0). */
export const depth = ref(0);

window.addEventListener('popstate', (event) => {
  route.value = parse(location.pathname, location.search);
  const state: unknown = event.state;
  depth.value =
    typeof state === 'object' &&
    state !== null &&
    'depth' in state &&
    typeof state.depth === 'number'
      ? state.depth
      : 0;
});

export function pathOf(name: RouteName, id?: string): string {
  if (name === 'overview') return `${BASE}/`;
  if (name === 'subscription') return `${BASE}/subscriptions/${encodeURIComponent(id ?? '')}`;
  if (name === 'import' && id) return `${BASE}/import/${encodeURIComponent(id)}`;
  return `${BASE}/${name}`;
}

/** Opens a screen on top of this one (Back returns). */
export function push(path: string): void {
  const url = new URL(path, location.origin);
  depth.value += 1;
  history.pushState({ depth: depth.value }, '', url.pathname + url.search);
  route.value = parse(url.pathname, url.search);
  window.scrollTo(0, 0);
}

/** Switches screens without history (the tab bar). */
export function replace(path: string): void {
  const url = new URL(path, location.origin);
  depth.value = 0;
  history.replaceState({ depth: 0 }, '', url.pathname + url.search);
  route.value = parse(url.pathname, url.search);
  window.scrollTo(0, 0);
}

export function back(): void {
  if (depth.value > 0) history.back();
  else replace(pathOf(parentOf(route.value.name)));
}

/** Where Back goes when there is no history (a deep link opened a detail screen). */
function parentOf(name: RouteName): RouteName {
  if (name === 'subscription' || name === 'add') return 'subscriptions';
  if (['activity', 'ask', 'settings', 'connect', 'import'].includes(name)) return 'more';
  return 'overview';
}

export const isRoot = computed(() =>
  ['overview', 'subscriptions', 'calendar', 'insights', 'more', 'signin', 'join'].includes(
    route.value.name,
  ),
);

/** A Telegram start parameter (`?startapp=`) names a screen: sub_<id>, upcoming, import_<flow>… */
export function pathForStartParam(param: string): string | null {
  // Subscription ids start with sub_ themselves: `sub_<id>` and the bare id both open it.
  if (param.startsWith('sub_sub_')) return pathOf('subscription', param.slice(4));
  if (param.startsWith('sub_')) return pathOf('subscription', param);
  if (param.startsWith('import_')) return pathOf('import', param.slice('import_'.length));
  const screens: Record<string, string> = {
    upcoming: `${BASE}/calendar`,
    calendar: `${BASE}/calendar`,
    ask: `${BASE}/ask`,
    settings: `${BASE}/settings`,
    connect: `${BASE}/connect`,
    activity: `${BASE}/activity`,
    insights: `${BASE}/insights`,
    subscriptions: `${BASE}/subscriptions`,
  };
  return screens[param] ?? null;
}
