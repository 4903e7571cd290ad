import { type Locale, t } from '../i18n/index.ts';
import type { ReadStep } from '../imports/statements/progress.ts';
import type { Turn } from './turn.ts';
import type { SentRef } from './types.ts';

/**
 * One progress message edited as slow work goes ("Reading page 2 of 3…", "Reading the picture…
 * 40%"), channel-agnostic: the engine only edits the message it sent, and each channel renders an
 * edit its own way (Telegram and Slack edit in place, the terminal prints the new line). Edits are
 * throttled: one only when the text changed, and at most one per `everyMs` (the channel's
 * `editEveryMs`, else a second: Telegram refuses bursts of edits to one message). A text that
 * comes too soon waits for its turn, replaced by any newer one. `set` never waits nor throws, so
 * the work it reports on is never slowed or failed by it; `settle` ends the updates (and waits
 * for the edit under way) before the message is replaced by its result.
 */

export const DEFAULT_EDIT_EVERY_MS = 1_000;

export class ProgressMessage {
  private shown: string;
  private wanted: string;
  /** When the message was last sent or edited (Date.now(), so fake timers drive it in tests). */
  private lastAt: number;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The edit under way, so edits never overlap and settle() can wait for the last one. */
  private editing: Promise<void> = Promise.resolve();
  private settled = false;

  /**
   * `first` is the text the message was sent with; `edit` replaces it (null: the channel gave no
   * message to edit, and nothing is shown); a failed edit is logged and the next one tried.
   */
  constructor(
    first: string,
    private readonly edit: ((text: string) => Promise<void>) | null,
    private readonly everyMs: number,
    private readonly log: (message: string, error?: unknown) => void,
  ) {
    this.shown = first;
    this.wanted = first;
    this.lastAt = Date.now();
  }

  /** Shows `text` now, or when the throttle allows; nothing when it is what is shown already. */
  set(text: string): void {
    if (this.settled || !this.edit) return;
    this.wanted = text;
    if (text === this.shown || this.timer) return;
    const wait = this.lastAt + this.everyMs - Date.now();
    if (wait <= 0) this.flush();
    else this.timer = setTimeout(() => this.flush(), wait);
  }

  private flush(): void {
    this.timer = undefined;
    const edit = this.edit;
    if (this.settled || !edit || this.wanted === this.shown) return;
    const text = this.wanted;
    this.shown = text;
    this.lastAt = Date.now();
    this.editing = this.editing
      .then(() => edit(text))
      .catch((error: unknown) => this.log('chat: editing a progress message failed', error));
  }

  /** No more updates: the edit under way (if any) is waited for; one waiting is dropped. */
  async settle(): Promise<void> {
    this.settled = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.editing;
  }
}

/** The progress message `ref` of a turn (sent with `first`), edited as the turn's channel allows. */
export function progressOf(
  turn: Turn,
  ref: SentRef | null,
  first: string,
  log: (message: string, error?: unknown) => void,
): ProgressMessage {
  const edit = ref && ((text: string) => turn.edit(ref, turn.reply().say(text)));
  return new ProgressMessage(first, edit, turn.channel.editEveryMs ?? DEFAULT_EDIT_EVERY_MS, log);
}

/** What a step of reading a statement is called, for a progress line (pictures in steps of 10%). */
export function readStepText(locale: Locale, step: ReadStep): string {
  if (step.step === 'finding') return t(locale, 'imports.progress.finding');
  if (step.step === 'page')
    return t(locale, 'imports.progress.page', { page: step.page, pages: step.pages });
  const percent = Math.min(100, Math.max(0, Math.floor(step.done * 10) * 10));
  return t(locale, 'imports.progress.picture', { percent });
}
