import { createApp } from 'vue';

import App from './App.vue';
import { useTelegramAuth } from './lib/api.ts';
import { pickLocale, setLocale } from './lib/i18n.ts';
import { startFirstScreen } from './lib/prefetch.ts';
import { pathForStartParam, replace, route } from './lib/router.ts';
import { startTelegram } from './lib/telegram.ts';
import { openStale } from './lib/deepLink.ts';
import './style.css';

/**
 * Bootstrap: inside Telegram (launch parameters present) the SDK is started and every API call
 * carries the launch's init data; outside Telegram the session cookie is used, and without one
 * the sign-in screen says how to get a link. A start parameter opens the screen it names.
 * Marks `exhale:main` and `exhale:mounted` are read by `npm run bench -- miniapp`.
 */
/** The screen a start parameter names, on the Overview only; one it does not name: a note. */
function openStartParam(param: string): void {
  const path = pathForStartParam(param);
  if (path && route.value.name === 'overview') replace(path);
  else if (!path) openStale();
}

const launch = startTelegram();
if (launch) {
  useTelegramAuth(launch.initDataRaw);
  setLocale(pickLocale(launch.languageCode));
  if (launch.startParam) openStartParam(launch.startParam);
} else {
  setLocale(pickLocale(navigator.language));
  // A t.me-style link opened in a plain browser (`/app/?startapp=sub_<id>`) opens its screen too
  // (after sign-in when there is no session yet: lib/afterSignIn.ts).
  const query = new URLSearchParams(location.search);
  const param = query.get('startapp') ?? query.get('tgWebAppStartParam');
  if (param) openStartParam(param);
  const dark = window.matchMedia('(prefers-color-scheme: dark)');
  const apply = (): void => {
    document.documentElement.dataset.scheme = dark.matches ? 'dark' : 'light';
  };
  apply();
  dark.addEventListener('change', apply);
}
document.documentElement.dataset.telegram = launch ? 'yes' : 'no';

// The first screen's one round trip starts before the app is built and mounted, so the server
// works while Vue renders the skeleton (the sign-in screen outside Telegram needs none).
performance.mark('exhale:main');
// Neither does the join page of an invite link, opened by someone not in a household yet.
if (launch || (route.value.name !== 'signin' && route.value.name !== 'join'))
  startFirstScreen(route.value.name === 'overview');
createApp(App).mount('#app');
performance.mark('exhale:mounted');
