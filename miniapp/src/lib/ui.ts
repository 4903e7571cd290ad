import { ref, shallowRef } from 'vue';

import { ApiError, confirm as confirmPending, discard, op, prepare } from './api.ts';
import { t } from './i18n.ts';
import { hapticError, hapticSuccess, hapticUndo, type MainAction } from './telegram.ts';
import type { Card } from './types.ts';

/**
 * App-wide UI state: the screen's main action (Telegram's MainButton, or the app's own button
 * outside Telegram), the confirm sheet with Exhale's card, and the Undo toast.
 */
export const mainAction = shallowRef<MainAction | null>(null);

export interface Toast {
  id: number;
  text: string;
  undoAuditId: string | null;
  tone: 'ok' | 'error';
  /** What the button does to `undoAuditId`: take the change back, or bring back what it undid. */
  action: 'undo' | 'redo';
}
export const toast = ref<Toast | null>(null);
let toastTimer: ReturnType<typeof setTimeout> | null = null;
let toastSeq = 0;

export function showToast(
  text: string,
  undoAuditId: string | null = null,
  tone: Toast['tone'] = 'ok',
  action: Toast['action'] = 'undo',
): void {
  if (toastTimer) clearTimeout(toastTimer);
  toast.value = { id: ++toastSeq, text, undoAuditId, tone, action };
  // Long enough to reach Undo; a new toast replaces it.
  toastTimer = setTimeout(() => (toast.value = null), undoAuditId ? 8000 : 4000);
}

export function hideToast(): void {
  toast.value = null;
}

/**
 * Undoes an entry through the catalog's `undo` op and says what happened, as the op's `effect`
 * tells: "Undone." (a change taken back: the toast's button then brings it back, Redo) or "Done
 * again." (an undo undone: the change is back, and the button takes it back again, Undo).
 * Resolves true when it was applied.
 */
export async function undoChange(auditId: string): Promise<boolean> {
  try {
    const result = await op('undo', { ids: [auditId] });
    hapticUndo();
    const redone = result.output.undone.every((u) => u.effect === 'redone');
    showToast(
      redone ? t('activity.redone') : t('toast.undone'),
      result.auditId,
      'ok',
      redone ? 'undo' : 'redo',
    );
    return true;
  } catch (error) {
    hapticError();
    showToast(error instanceof Error ? error.message : String(error), null, 'error');
    return false;
  }
}

export interface Sheet {
  pendingId: string;
  card: Card;
  destructive: boolean;
  busy: boolean;
  error: string | null;
}
export const sheet = ref<Sheet | null>(null);
let settle: ((done: boolean) => void) | null = null;

/**
 * Asks before a change: the server prepares it (dry run, Exhale's card), the sheet shows that
 * card, Confirm applies it once as previewed. Resolves true when applied, after the Undo toast.
 */
export async function askFirst(
  name: string,
  input: Record<string, unknown>,
  done: string,
  destructive = false,
): Promise<boolean> {
  let pending;
  try {
    pending = await prepare(name, input);
  } catch (error) {
    hapticError();
    showToast(error instanceof Error ? error.message : String(error), null, 'error');
    return false;
  }
  doneText = done;
  sheet.value = {
    pendingId: pending.id,
    card: pending.card,
    destructive,
    busy: false,
    error: null,
  };
  return new Promise<boolean>((resolve) => (settle = resolve));
}

/** The toast's text once the sheet's change is confirmed. */
let doneText = '';

export async function confirmSheet(): Promise<void> {
  const current = sheet.value;
  if (!current || current.busy) return;
  current.busy = true;
  current.error = null;
  try {
    const result = await confirmPending(current.pendingId);
    sheet.value = null;
    hapticSuccess();
    // Undo only when the server offers it (never for a sign-out, which cannot be undone).
    showToast(doneText || result.card.title, result.undo?.auditId ?? null);
    settle?.(true);
  } catch (error) {
    current.busy = false;
    current.error =
      error instanceof ApiError || error instanceof Error ? error.message : String(error);
    hapticError();
  }
}

export async function discardSheet(): Promise<void> {
  const current = sheet.value;
  sheet.value = null;
  settle?.(false);
  if (current) await discard(current.pendingId).catch(() => undefined);
}
