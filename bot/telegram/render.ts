import type { InlineKeyboardButton, InlineKeyboardMarkup } from 'grammy/types';

import type { Button, Reply } from '../../core/chat/index.ts';

/** Telegram's limit on a message's text, counted after entity parsing. */
export const MAX_MESSAGE_LENGTH = 4096;

/** One Telegram message: HTML text and its inline keyboard. */
export interface TelegramMessage {
  text: string;
  reply_markup?: InlineKeyboardMarkup;
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A piece of the message: its HTML and how long it is once Telegram has parsed it. */
interface Block {
  html: string;
  visible: number;
}

const length = (text: string): number => [...text].length;

function plain(text: string): Block[] {
  const points = [...text];
  if (points.length <= MAX_MESSAGE_LENGTH)
    return [{ html: escapeHtml(text), visible: points.length }];
  // A single line longer than a message is cut at the limit (by code points, as Telegram counts).
  const blocks: Block[] = [];
  for (let i = 0; i < points.length; i += MAX_MESSAGE_LENGTH) {
    const part = points.slice(i, i + MAX_MESSAGE_LENGTH).join('');
    blocks.push({ html: escapeHtml(part), visible: length(part) });
  }
  return blocks;
}

function blocksOf(reply: Reply): Block[] {
  const blocks: Block[] = [];
  if (reply.card) {
    blocks.push({
      html: `<b>${escapeHtml(reply.card.title)}</b>`,
      visible: length(reply.card.title),
    });
    for (const line of reply.card.lines) blocks.push(...plain(line));
    if (reply.card.code)
      blocks.push({
        html: `<code>${escapeHtml(reply.card.code)}</code>`,
        visible: length(reply.card.code),
      });
    if (reply.text) blocks.push({ html: '', visible: 0 });
  }
  if (reply.text) for (const line of reply.text.split('\n')) blocks.push(...plain(line));
  return blocks;
}

/** Telegram renders web_app buttons only in private chats; elsewhere the Mini App opens as a link. */
function button(b: Button, privateChat: boolean): InlineKeyboardButton {
  switch (b.kind) {
    case 'action':
      return { text: b.label, callback_data: b.payload };
    case 'url':
      return { text: b.label, url: b.url };
    case 'webapp':
      return privateChat
        ? { text: b.label, web_app: { url: b.url } }
        : { text: b.label, url: b.url };
    default: {
      const unreachable: never = b;
      return unreachable;
    }
  }
}

/**
 * A reply as Telegram messages: the card's title in bold, its lines and the text escaped for
 * HTML parse mode; split on line boundaries so no message passes 4096 visible characters; the
 * buttons go on the last message.
 */
export function renderTelegram(reply: Reply, privateChat: boolean): TelegramMessage[] {
  const messages: TelegramMessage[] = [];
  let lines: string[] = [];
  let size = 0;
  for (const block of blocksOf(reply)) {
    const added = block.visible + (lines.length > 0 ? 1 : 0);
    if (lines.length > 0 && size + added > MAX_MESSAGE_LENGTH) {
      messages.push({ text: lines.join('\n') });
      lines = [];
      size = 0;
    }
    size += block.visible + (lines.length > 0 ? 1 : 0);
    lines.push(block.html);
  }
  if (lines.length > 0 && lines.some((l) => l.trim().length > 0))
    messages.push({ text: lines.join('\n') });
  if (messages.length === 0) messages.push({ text: '…' });
  const keyboard = (reply.buttons ?? [])
    .filter((row) => row.length > 0)
    .map((row) => row.map((b) => button(b, privateChat)));
  const last = messages[messages.length - 1];
  if (last && keyboard.length > 0) last.reply_markup = { inline_keyboard: keyboard };
  return messages;
}
