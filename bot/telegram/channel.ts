import { type Api, GrammyError, InputFile } from 'grammy';

import type { Channel, LiveText, Reply, SentRef } from '../../core/chat/index.ts';
import { STREAMING, type StreamingOptions, TelegramLive } from './live.ts';
import { renderTelegram, type TelegramMessage } from './render.ts';

/** Telegram answers 400 "message is not modified" to an edit that changes nothing: not an error for us. */
export function isNotModified(error: unknown): boolean {
  return (
    error instanceof GrammyError &&
    error.error_code === 400 &&
    error.description.includes('message is not modified')
  );
}

const NO_PREVIEW = { is_disabled: true } as const;

/** The engine's Channel for one Telegram chat (and, for a press, the callback query being answered). */
export class TelegramChannel implements Channel {
  readonly name = 'telegram' as const;
  /** The toast text for the press being answered, if the engine gave one. */
  noticeText: string | null = null;

  constructor(
    private readonly api: Api,
    private readonly chatId: number,
    private readonly options: {
      privateChat: boolean;
      botUsername: string;
      threadId?: number | undefined;
      streaming?: StreamingOptions | undefined;
      log?: ((message: string, error?: unknown) => void) | undefined;
    },
  ) {}

  /** Progress messages are edited no more often than streamed answers are (live.ts). */
  get editEveryMs(): number {
    const streaming = this.options.streaming ?? STREAMING;
    return this.options.privateChat ? streaming.editIntervalMs : streaming.groupEditIntervalMs;
  }

  private extra(message: TelegramMessage) {
    return {
      parse_mode: 'HTML' as const,
      link_preview_options: NO_PREVIEW,
      ...(message.reply_markup ? { reply_markup: message.reply_markup } : {}),
      ...(this.options.threadId !== undefined ? { message_thread_id: this.options.threadId } : {}),
    };
  }

  async send(reply: Reply): Promise<SentRef | null> {
    let ref: SentRef | null = null;
    const { files, ...rest } = reply;
    if (rest.text !== undefined || rest.card !== undefined || rest.buttons !== undefined)
      for (const message of renderTelegram(rest, this.options.privateChat)) {
        const sent = await this.api.sendMessage(this.chatId, message.text, this.extra(message));
        ref = { chatId: String(sent.chat.id), messageId: String(sent.message_id) };
      }
    // Files go after the message, one document each (uploaded as multipart by grammY).
    for (const file of files ?? [])
      await this.api.sendDocument(
        this.chatId,
        new InputFile(file.bytes, file.name),
        this.options.threadId !== undefined ? { message_thread_id: this.options.threadId } : {},
      );
    return ref;
  }

  /** Bots may delete a member's message in a private chat (Telegram allows it within 48 hours). */
  async deleteMessage(ref: SentRef): Promise<boolean> {
    try {
      return await this.api.deleteMessage(Number(ref.chatId), Number(ref.messageId));
    } catch (error) {
      this.options.log?.('telegram: deleting a message failed', error);
      return false;
    }
  }

  async edit(ref: SentRef, reply: Reply): Promise<void> {
    const [first, ...rest] = renderTelegram(reply, this.options.privateChat);
    if (!first) return;
    const { message_thread_id: _thread, ...extra } = this.extra(first);
    try {
      await this.api.editMessageText(Number(ref.chatId), Number(ref.messageId), first.text, extra);
    } catch (error) {
      if (!isNotModified(error)) throw error;
    }
    for (const message of rest)
      await this.api.sendMessage(this.chatId, message.text, this.extra(message));
  }

  async clearButtons(ref: SentRef): Promise<void> {
    try {
      await this.api.editMessageReplyMarkup(Number(ref.chatId), Number(ref.messageId), {
        reply_markup: { inline_keyboard: [] },
      });
    } catch (error) {
      if (!isNotModified(error)) throw error;
    }
  }

  async typing(): Promise<void> {
    await this.api.sendChatAction(
      this.chatId,
      'typing',
      this.options.threadId !== undefined ? { message_thread_id: this.options.threadId } : {},
    );
  }

  /** An answer as it is written: drafts in a private chat, one edited message in a group. */
  live(): LiveText {
    return new TelegramLive({
      api: this.api,
      chatId: this.chatId,
      privateChat: this.options.privateChat,
      threadId: this.options.threadId,
      streaming: this.options.streaming ?? STREAMING,
      send: (text) => this.send({ text }),
      edit: (ref, text) => this.edit(ref, { text }),
      isNotModified,
      log: this.options.log ?? (() => undefined),
    });
  }

  async notice(text: string): Promise<void> {
    this.noticeText = text.slice(0, 200);
  }

  /** `https://t.me/<bot>?start=<code>`: opens a private chat that starts with `/start <code>`. */
  deepLink(code: string): string | null {
    if (!this.options.botUsername) return null;
    const base = `https://t.me/${this.options.botUsername}`;
    return code && /^[A-Za-z0-9_-]{1,64}$/.test(code) ? `${base}?start=${code}` : base;
  }
}
