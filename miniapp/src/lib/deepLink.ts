import { ApiError } from './api.ts';
import { t } from './i18n.ts';
import { pathOf, replace } from './router.ts';
import { showToast } from './ui.ts';

/**
 * A link from chat (a card's "Open in app", a t.me start parameter) that names a screen which is
 * not there (a deleted subscription, an expired import review, a parameter this app does not
 * know): the Overview opens instead, with a short note saying why.
 */
export function openStale(): void {
  replace(pathOf('overview'));
  showToast(t('wu.stale_link'));
}

/** Whether a failed load means "this screen's thing is gone" (the server's 404). */
export function isGone(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
