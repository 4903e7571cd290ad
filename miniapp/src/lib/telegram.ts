import {
  backButton,
  closingBehavior,
  hapticFeedback,
  init,
  mainButton,
  miniApp,
  openLink,
  retrieveLaunchParams,
  retrieveRawInitData,
  themeParams,
  viewport,
} from '@telegram-apps/sdk';

/**
 * Telegram integration (@telegram-apps/sdk 3.x, speaking postMessage itself: no
 * telegram-web-app.js, so the strict CSP holds). Inside Telegram: theme and viewport as CSS
 * variables, BackButton and MainButton, haptics, closing confirmation. Outside Telegram every
 * function here is a no-op and the app draws its own header and buttons.
 */
export interface Launch {
  initDataRaw: string;
  startParam: string | null;
  languageCode: string | null;
  colorScheme: 'light' | 'dark';
}

let active = false;
export function inTelegram(): boolean {
  return active;
}

/** Reads the launch parameters; null outside Telegram (a plain browser). */
function readLaunch(): Launch | null {
  try {
    // The init data exactly as Telegram sent it: the server checks its HMAC over these bytes.
    const raw = retrieveRawInitData();
    if (!raw) return null;
    const lp = retrieveLaunchParams();
    const user = lp.tgWebAppData?.user;
    const bg = lp.tgWebAppThemeParams.bg_color;
    return {
      initDataRaw: raw,
      startParam: lp.tgWebAppStartParam ?? lp.tgWebAppData?.start_param ?? null,
      languageCode: user?.language_code ?? null,
      colorScheme: bg && isDark(bg) ? 'dark' : 'light',
    };
  } catch (error) {
    // Launch parameters that do not parse: run as a plain browser, and say why in the console.
    if (location.hash.includes('tgWebApp')) console.warn('Telegram launch parameters:', error);
    return null;
  }
}

function isDark(hex: string): boolean {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})/i.exec(hex);
  if (!m) return false;
  const [r, g, b] = [m[1], m[2], m[3]].map((x) => parseInt(x ?? '0', 16));
  return 0.299 * (r ?? 0) + 0.587 * (g ?? 0) + 0.114 * (b ?? 0) < 128;
}

export function startTelegram(): Launch | null {
  const launch = readLaunch();
  if (!launch) return null;
  init();
  active = true;
  backButton.mount.ifAvailable();
  mainButton.mount.ifAvailable();
  closingBehavior.mount.ifAvailable();
  if (themeParams.mountSync.isAvailable()) {
    themeParams.mountSync();
    themeParams.bindCssVars.ifAvailable();
  }
  if (miniApp.mountSync.isAvailable()) {
    miniApp.mountSync();
    miniApp.bindCssVars.ifAvailable();
  }
  document.documentElement.dataset.scheme = launch.colorScheme;
  themeParams.isDark.sub((dark: boolean) => {
    document.documentElement.dataset.scheme = dark ? 'dark' : 'light';
  });
  // The viewport answers asynchronously; the app does not wait for it to draw.
  if (viewport.mount.isAvailable()) {
    viewport
      .mount()
      .then(() => {
        viewport.bindCssVars.ifAvailable();
        viewport.expand.ifAvailable();
      })
      .catch(() => undefined);
  }
  miniApp.ready.ifAvailable();
  return launch;
}

let backHandler: (() => void) | null = null;
let offBack: VoidFunction | null = null;

/** Shows Telegram's BackButton while `handler` is set. */
export function setBack(handler: (() => void) | null): void {
  if (!active) return;
  backHandler = handler;
  if (handler) {
    offBack ??= backButton.onClick(() => backHandler?.());
    backButton.show.ifAvailable();
  } else {
    backButton.hide.ifAvailable();
  }
}

let mainHandler: (() => void) | null = null;
let offMain: VoidFunction | null = null;

export interface MainAction {
  label: string;
  run: () => void;
  disabled?: boolean;
  busy?: boolean;
}

/** Telegram's MainButton shows the screen's main action (null hides it). */
export function setMain(action: MainAction | null): void {
  if (!active) return;
  mainHandler = action?.run ?? null;
  if (!action) {
    mainButton.setParams.ifAvailable({ isVisible: false });
    return;
  }
  offMain ??= mainButton.onClick(() => {
    if (mainHandler) mainHandler();
  });
  mainButton.setParams.ifAvailable({
    text: action.label,
    isVisible: true,
    isEnabled: !action.disabled,
    isLoaderVisible: Boolean(action.busy),
  });
}

export function hapticSuccess(): void {
  if (active) hapticFeedback.notificationOccurred.ifAvailable('success');
}
export function hapticUndo(): void {
  if (active) hapticFeedback.impactOccurred.ifAvailable('medium');
}
export function hapticError(): void {
  if (active) hapticFeedback.notificationOccurred.ifAvailable('error');
}

/** Asks before closing the Mini App while a form has unsaved changes. */
export function setClosingConfirmation(on: boolean): void {
  if (!active) return;
  if (on) closingBehavior.enableConfirmation.ifAvailable();
  else closingBehavior.disableConfirmation.ifAvailable();
}

/** Opens a link outside the app (Telegram's browser inside Telegram). */
export function openExternal(url: string): void {
  if (active && openLink.isAvailable()) openLink(url);
  else window.open(url, '_blank', 'noopener');
}
