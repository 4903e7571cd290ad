import type { Api } from 'grammy';

import type { LiveText, SentRef } from '../../core/chat/index.ts';
import { MAX_MESSAGE_LENGTH } from './render.ts';

/**
 * How often a live answer may update Telegram. Telegram does not publish its limits; its FAQ asks
 * bots for no more than about one message a second per chat and 20 a minute per group, and edits
 * keep the same pace here.
 */
export interface StreamingOptions {
  /** Least time between two drafts (`sendMessageDraft`) in a private chat. */
  draftIntervalMs: number;
  /** Least time between two edits of the live message in a private chat (when drafts fail). */
  editIntervalMs: number;
  /** Least time between two edits of the live message in a group. */
  groupEditIntervalMs: number;
  /** A draft disappears after about 30 s without news: it is sent again after this long. */
  draftKeepAliveMs: number;
}

export const STREAMING: StreamingOptions = {
  draftIntervalMs: 300,
  editIntervalMs: 1_000,
  groupEditIntervalMs: 3_000,
  draftKeepAliveMs: 20_000,
};

export interface LiveTarget {
  api: Api;
  chatId: number;
  privateChat: boolean;
  threadId?: number | undefined;
  streaming: StreamingOptions;
  /** Sends the finished answer (HTML-rendered, split at Telegram's limit). */
  send(text: string): Promise<SentRef | null>;
  /** Replaces the live message with the finished answer (extra parts become new messages). */
  edit(ref: SentRef, text: string): Promise<void>;
  isNotModified(error: unknown): boolean;
  log(message: string, error?: unknown): void;
}

/** What the live view shows of a long answer: Telegram refuses more than 4096 characters. */
function preview(text: string): string {
  const trimmed = text.trim();
  const points = [...trimmed];
  return points.length <= MAX_MESSAGE_LENGTH
    ? trimmed
    : `${points.slice(0, MAX_MESSAGE_LENGTH - 1).join('')}…`;
}

let lastDraftId = Math.floor(Math.random() * 1_000_000_000);
/** Draft ids must be non-zero; changes under one id are animated as one growing draft. */
function nextDraftId(): number {
  lastDraftId = (lastDraftId % 2_147_483_646) + 1;
  return lastDraftId;
}

/**
 * An answer streamed into a Telegram chat. In a private chat it is a draft (`sendMessageDraft`,
 * plain text) replaced by the finished message; in a group (or if drafts fail) one message is sent
 * and edited. Updates are throttled per answer, skipped when the visible text is unchanged, and
 * never more than one in flight; the finished answer waits for the one in flight.
 */
export class TelegramLive implements LiveText {
  private text = '';
  private shown = '';
  private lastAt = Number.NEGATIVE_INFINITY;
  private timer: NodeJS.Timeout | null = null;
  private keepAlive: NodeJS.Timeout | null = null;
  private inflight: Promise<void> | null = null;
  private ref: SentRef | null = null;
  private mode: 'draft' | 'edit';
  private closed = false;
  private readonly draftId = nextDraftId();

  constructor(private readonly target: LiveTarget) {
    this.mode = target.privateChat ? 'draft' : 'edit';
  }

  private get interval(): number {
    const s = this.target.streaming;
    if (this.mode === 'draft') return s.draftIntervalMs;
    return this.target.privateChat ? s.editIntervalMs : s.groupEditIntervalMs;
  }

  write(delta: string): void {
    if (this.closed || delta === '') return;
    this.text += delta;
    this.schedule();
  }

  private schedule(): void {
    if (this.closed || this.timer || this.inflight) return;
    if (preview(this.text) === this.shown) return;
    const wait = Math.max(0, this.lastAt + this.interval - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.inflight = this.flush().finally(() => {
        this.inflight = null;
        this.schedule();
      });
    }, wait);
  }

  private async flush(): Promise<void> {
    const view = preview(this.text);
    if (this.closed || view === '' || view === this.shown) return;
    this.lastAt = Date.now();
    const { api, chatId, threadId } = this.target;
    const thread = threadId !== undefined ? { message_thread_id: threadId } : {};
    try {
      if (this.mode === 'draft') {
        await api.sendMessageDraft(chatId, this.draftId, view, thread);
        this.armKeepAlive();
      } else if (!this.ref) {
        const sent = await api.sendMessage(chatId, view, {
          link_preview_options: { is_disabled: true },
          ...thread,
        });
        this.ref = { chatId: String(sent.chat.id), messageId: String(sent.message_id) };
      } else {
        await api.editMessageText(chatId, Number(this.ref.messageId), view, {
          link_preview_options: { is_disabled: true },
        });
      }
      this.shown = view;
    } catch (error) {
      if (this.target.isNotModified(error)) {
        this.shown = view;
        return;
      }
      if (this.mode === 'draft') {
        // Drafts refused (an old Bot API server, a chat that takes none): stream by edits instead.
        this.target.log('telegram: drafts refused, streaming by edits', error);
        this.mode = 'edit';
        this.lastAt = Number.NEGATIVE_INFINITY;
        return;
      }
      // The live view is a courtesy; the finished answer is still sent.
      this.target.log('telegram: a live update failed', error);
    }
  }

  /** Sends the same draft again before Telegram lets it fade (a long tool call, a slow model). */
  private armKeepAlive(): void {
    if (this.keepAlive) clearTimeout(this.keepAlive);
    this.keepAlive = setTimeout(() => {
      this.keepAlive = null;
      if (this.closed || this.mode !== 'draft' || this.inflight || this.timer) return;
      this.shown = '';
      this.schedule();
    }, this.target.streaming.draftKeepAliveMs);
    this.keepAlive.unref();
  }

  private async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.keepAlive) clearTimeout(this.keepAlive);
    this.timer = null;
    this.keepAlive = null;
    await this.inflight;
  }

  async finish(text: string): Promise<SentRef | null> {
    await this.close();
    if (this.ref) {
      if (text.trim() === '') return this.ref;
      // The last edit keeps the pace too.
      const wait = this.lastAt + this.interval - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      await this.target.edit(this.ref, text);
      return this.ref;
    }
    return text.trim() === '' ? null : this.target.send(text);
  }

  async abort(): Promise<void> {
    await this.close();
  }
}
