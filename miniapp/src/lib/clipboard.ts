import { t } from './i18n.ts';
import { hapticError } from './telegram.ts';
import { showToast } from './ui.ts';

/**
 * Copies a text and says what happened: "Copied." only when the clipboard took it; otherwise
 * (no clipboard API, a browser that refuses it, a page not in focus) an error that says to
 * select the text and copy it by hand, so nobody pastes something else believing it was copied.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error('no clipboard');
    await navigator.clipboard.writeText(text);
    showToast(t('calendar.copied'));
    return true;
  } catch {
    hapticError();
    showToast(t('polish.copy_failed'), null, 'error');
    return false;
  }
}
