/**
 * What a button does, stored as JSON in a `flows` row and replayed by whichever process receives
 * the press. Keep them small and self-contained: everything a press needs is in here.
 */
export type Action =
  /** `page`: set when the button sits on an /activity page (its cursor), which is then redrawn. */
  | { t: 'undo'; audit: string; page?: string | null }
  | { t: 'subs_page'; offset: number; text: string | null }
  | { t: 'totals'; group_by: 'none' | 'category' | 'payment_method' | 'member' | 'tag' }
  | { t: 'token'; scope: 'read' | 'write' | 'trusted'; name: string }
  | { t: 'activity_page'; before: string | null }
  | { t: 'onboard_currency'; currency: string }
  | { t: 'onboard_tz'; currency: string; tz: string }
  | { t: 'onboard_other'; step: 'currency' | 'tz'; currency: string | null }
  | { t: 'link_group'; chatId: string; title: string | null }
  | { t: 'add_set'; draft: AddDraft }
  | { t: 'add_confirm'; draft: AddDraft }
  | { t: 'cancel' }
  | { t: 'paid'; sub: string; due: string }
  | { t: 'skip'; sub: string; due: string }
  | { t: 'set_language'; language: 'en' | 'es' }
  | { t: 'set_time'; time: string }
  | { t: 'set_offsets'; offsets: number[] }
  | { t: 'command'; command: string }
  /** The assistant's proposal cards: `p` is the proposal id (a `flows` row of kind proposal). */
  | { t: 'ai_confirm'; p: string }
  | { t: 'ai_discard'; p: string }
  | { t: 'ai_undo'; p: string };

export type ActionKind = Action['t'];

/** A subscription being put together by `/add` before it is created. */
export interface AddDraft {
  name: string;
  amount: string;
  currency: string | null;
  cycle: 'day' | 'week' | 'month' | 'year' | null;
  /** Units per cycle (quarterly: 3 months); absent means 1. */
  every?: number;
  /** The first charge date (YYYY-MM-DD), or null for "today". */
  date: string | null;
}

/**
 * Actions that must run at most once per message (a second press is refused). Pressing one uses
 * up every button of its message: a preview that was added, cancelled or redrawn with new buttons
 * does nothing when an old copy of its keyboard is pressed.
 */
const ONCE: ReadonlySet<ActionKind> = new Set<ActionKind>([
  'onboard_tz',
  'add_confirm',
  'add_set',
  'cancel',
  'link_group',
  'paid',
  'skip',
  'token',
  'ai_confirm',
  'ai_discard',
  'ai_undo',
]);

export function runsOnce(action: Action): boolean {
  return ONCE.has(action.t);
}
