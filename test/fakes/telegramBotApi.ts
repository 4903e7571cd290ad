import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';

/**
 * A fake Telegram Bot API over loopback that speaks the real wire protocol, so the real bot
 * (grammY, the runner, auto-retry, webhooks) runs against it unchanged:
 * - `/bot<token>/<method>` over GET and POST with JSON, urlencoded or multipart bodies;
 * - Telegram's envelopes `{ok, result}` / `{ok:false, error_code, description, parameters}`, with
 *   the real descriptions (429 retry_after, "message is not modified", "message is too long",
 *   BUTTON_DATA_INVALID, 403 for users who never started the bot, 409 conflicts);
 * - long polling with offset, limit, timeout and allowed_updates, where a second concurrent
 *   getUpdates terminates the first with 409 like Telegram does;
 * - webhooks posted with the X-Telegram-Bot-Api-Secret-Token header, retried on failure;
 * - HTML parse mode: the stored text is the text after entity parsing, which the 4096-character
 *   limit applies to;
 * - streaming drafts (`sendMessageDraft`: private chats only, TEXTDRAFT_PEER_INVALID elsewhere;
 *   a message the bot sends to the chat ends the draft) and files (photos and documents users
 *   send, `getFile`, downloads from `/file/bot<token>/<path>`, "file is too big" over 20 MB).
 * Tests act as users through the driver methods (`sendText`, `press`, …) and read what the bot
 * did through `botMessages`, `calls` and `waitFor`.
 */

export const MAX_TEXT = 4096;
const MAX_CALLBACK_DATA = 64;
/** The largest file the cloud Bot API lets a bot download. */
export const MAX_DOWNLOAD = 20 * 1024 * 1024;

/** A draft the bot streamed into a private chat (`sendMessageDraft`). */
export interface TgDraft {
  chatId: number;
  draftId: number;
  /** The visible text (after entity parsing). */
  text: string;
  at: number;
}

interface StoredFile {
  fileId: string;
  uniqueId: string;
  path: string;
  data: Buffer;
  /** What the file claims to weigh (a test may claim more than it holds, to test limits). */
  size: number;
}

/**
 * A multipart/form-data body as Telegram reads it: text fields as strings, files as
 * `{ upload, filename }`.
 */
function parseMultipart(body: Buffer, boundary: string): Params {
  const out: Params = {};
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next === -1) break;
    const part = body.subarray(start, next);
    const split = part.indexOf('\r\n\r\n');
    if (split !== -1) {
      const head = part.subarray(0, split).toString('utf8');
      // The part's content, without the CRLF before the next delimiter.
      let content = part.subarray(split + 4);
      if (content.subarray(-2).toString() === '\r\n') content = content.subarray(0, -2);
      const name = /\bname="?([^";\r\n]*)"?/i.exec(head)?.[1];
      const filename = /\bfilename="?([^";\r\n]*)"?/i.exec(head)?.[1];
      if (name !== undefined)
        out[name] =
          filename !== undefined
            ? { upload: Buffer.from(content), filename }
            : content.toString('utf8');
    }
    at = next;
  }
  return out;
}

/** Entities Telegram adds to a user's text: a leading bot command and `@name` mentions. */
function userEntities(text: string): Array<{ type: string; offset: number; length: number }> {
  const entities: Array<{ type: string; offset: number; length: number }> = [];
  const command = /^\/\S+/.exec(text);
  if (command) entities.push({ type: 'bot_command', offset: 0, length: command[0].length });
  for (const m of text.matchAll(/(^|[^\w@])(@[A-Za-z0-9_]{5,32})\b/g)) {
    const at = (m.index ?? 0) + (m[1]?.length ?? 0);
    if (command && at < command[0].length) continue;
    entities.push({ type: 'mention', offset: at, length: m[2]?.length ?? 0 });
  }
  return entities;
}

export interface TgUser {
  id: number;
  is_bot: boolean;
  first_name: string;
  username?: string;
  language_code?: string;
}

export interface TgChat {
  id: number;
  type: 'private' | 'group' | 'supergroup';
  title?: string;
  first_name?: string;
  username?: string;
}

export interface TgButton {
  text: string;
  callback_data?: string;
  url?: string;
  web_app?: { url: string };
}

export interface TgMarkup {
  inline_keyboard: TgButton[][];
}

export interface TgPhotoSize {
  file_id: string;
  file_unique_id: string;
  width: number;
  height: number;
  file_size?: number;
}

export interface TgDocument {
  file_id: string;
  file_unique_id: string;
  file_name?: string;
  mime_type?: string;
  file_size?: number;
}

export interface TgMessage {
  message_id: number;
  date: number;
  chat: TgChat;
  from?: TgUser;
  text?: string;
  entities?: Array<{ type: string; offset: number; length: number }>;
  caption?: string;
  caption_entities?: Array<{ type: string; offset: number; length: number }>;
  photo?: TgPhotoSize[];
  document?: TgDocument;
  reply_to_message?: TgMessage;
  reply_markup?: TgMarkup;
  edit_date?: number;
  /** The raw text the bot sent before entity parsing (HTML), kept for assertions. */
  source?: string;
}

export interface TgUpdate {
  update_id: number;
  message?: TgMessage;
  callback_query?: {
    id: string;
    from: TgUser;
    message: TgMessage;
    chat_instance: string;
    data: string;
  };
  my_chat_member?: {
    chat: TgChat;
    from: TgUser;
    date: number;
    old_chat_member: { status: string; user: TgUser };
    new_chat_member: { status: string; user: TgUser };
  };
}

export interface ApiCall {
  method: string;
  params: Params;
  at: number;
  ok: boolean;
  description?: string;
}

type Params = Record<string, unknown>;

class TgError extends Error {
  constructor(
    readonly code: number,
    readonly description: string,
    readonly parameters?: { retry_after?: number },
  ) {
    super(description);
  }
}

interface Fault {
  method: string;
  error_code: number;
  description: string;
  retry_after?: number;
  times: number;
}

/** Update kinds Telegram sends when allowed_updates is empty (chat_member and reactions are opt-in). */
const DEFAULT_UPDATE_TYPES = [
  'message',
  'edited_message',
  'channel_post',
  'callback_query',
  'my_chat_member',
  'inline_query',
];

/** Parses Telegram's HTML parse mode: returns the visible text, or throws Telegram's error. */
export function parseHtml(html: string): string {
  const allowed = new Set([
    'b',
    'strong',
    'i',
    'em',
    'u',
    'ins',
    's',
    'strike',
    'del',
    'code',
    'pre',
    'a',
    'tg-spoiler',
    'blockquote',
    'span',
    'tg-emoji',
  ]);
  const stack: string[] = [];
  let out = '';
  let i = 0;
  const bytes = (n: number): number => Buffer.byteLength(html.slice(0, n));
  while (i < html.length) {
    const ch = html[i];
    if (ch === '<') {
      const end = html.indexOf('>', i);
      if (end === -1)
        throw new TgError(
          400,
          `Bad Request: can't parse entities: Unclosed start tag at byte offset ${bytes(i)}`,
        );
      const tag = html.slice(i + 1, end).trim();
      const closing = tag.startsWith('/');
      const name = (closing ? tag.slice(1) : tag).split(/\s/)[0]?.toLowerCase() ?? '';
      if (!allowed.has(name))
        throw new TgError(
          400,
          `Bad Request: can't parse entities: Unsupported start tag "${name}" at byte offset ${bytes(i)}`,
        );
      if (closing) {
        if (stack.pop() !== name)
          throw new TgError(
            400,
            `Bad Request: can't parse entities: Unmatched end tag at byte offset ${bytes(i)}, expected "</${stack.at(-1) ?? ''}>", found "</${name}>"`,
          );
      } else stack.push(name);
      i = end + 1;
    } else if (ch === '&') {
      const end = html.indexOf(';', i);
      const entity = end === -1 ? '' : html.slice(i + 1, end);
      const known: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };
      if (known[entity] !== undefined) out += known[entity];
      else if (/^#\d+$/.test(entity)) out += String.fromCodePoint(Number(entity.slice(1)));
      else if (/^#x[0-9a-f]+$/i.test(entity))
        out += String.fromCodePoint(parseInt(entity.slice(2), 16));
      else
        throw new TgError(
          400,
          `Bad Request: can't parse entities: Unsupported HTML entity at byte offset ${bytes(i)}`,
        );
      i = end + 1;
    } else {
      out += ch;
      i += 1;
    }
  }
  if (stack.length > 0)
    throw new TgError(
      400,
      `Bad Request: can't parse entities: Can't find end tag corresponding to start tag "${stack.at(-1) ?? ''}"`,
    );
  return out;
}

export interface FakeTelegramOptions {
  token?: string;
  botId?: number;
  username?: string;
  /** Delay before retrying a failed webhook delivery (Telegram waits longer). */
  webhookRetryMs?: number;
  webhookRetries?: number;
}

export class FakeTelegram {
  readonly token: string;
  readonly me: TgUser & {
    can_join_groups: boolean;
    can_read_all_group_messages: boolean;
    supports_inline_queries: boolean;
  };
  apiRoot = '';
  readonly calls: ApiCall[] = [];
  /** Answers to callback queries, in order. */
  readonly answered: Array<{ id: string; text?: string }> = [];
  readonly webhookStatuses: number[] = [];
  /** Messages the bot has sent so far (cheap to poll in benchmarks). */
  sentCount = 0;
  /** Every draft the bot streamed, in order. */
  readonly drafts: TgDraft[] = [];

  private server: Server | null = null;
  private readonly updates: TgUpdate[] = [];
  private nextUpdateId = 1;
  private readonly nextMessageId = new Map<number, number>();
  private readonly messages = new Map<string, TgMessage>();
  private readonly users = new Map<number, TgUser>();
  private readonly chats = new Map<number, TgChat>();
  /** Users who have opened a private chat with the bot (sent it anything). */
  private readonly started = new Set<number>();
  private readonly blocked = new Set<number>();
  private readonly groupsWithBot = new Set<number>();
  private readonly openQueries = new Set<string>();
  private readonly faults: Fault[] = [];
  private readonly waiters = new Set<() => void>();
  private pendingPoll: { wake: () => void; terminate: () => void } | null = null;
  private allowedUpdates: string[] = DEFAULT_UPDATE_TYPES;
  private webhook: { url: string; secret?: string } | null = null;
  private webhookQueue: Promise<void> = Promise.resolve();
  private readonly commands = new Map<string, Array<{ command: string; description: string }>>();
  private menuButton: unknown = { type: 'commands' };
  private readonly files = new Map<string, StoredFile>();
  private readonly openDrafts = new Map<number, TgDraft>();
  private nextFile = 1;
  private readonly webhookRetryMs: number;
  private readonly webhookRetries: number;

  constructor(options: FakeTelegramOptions = {}) {
    this.token = options.token ?? '123456:TEST-token_abc';
    this.me = {
      id: options.botId ?? Number(this.token.split(':')[0]),
      is_bot: true,
      first_name: 'Exhale',
      username: options.username ?? 'exhale_test_bot',
      can_join_groups: true,
      can_read_all_group_messages: false,
      supports_inline_queries: false,
    };
    this.webhookRetryMs = options.webhookRetryMs ?? 50;
    this.webhookRetries = options.webhookRetries ?? 3;
  }

  // ---------------------------------------------------------------- lifecycle

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.route(req, res).catch((error: unknown) => {
        this.send(res, 500, {
          ok: false,
          error_code: 500,
          description: `Internal Server Error: ${String(error)}`,
        });
      });
    });
    // Longer than any client's idle keep-alive (Node's agent closes idle sockets at 5 s): the client
    // always closes first, so a request never races the server closing its socket (ECONNRESET).
    this.server.keepAliveTimeout = 65_000;
    this.server.headersTimeout = 66_000;
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.apiRoot = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.pendingPoll?.wake();
    await this.webhookQueue.catch(() => undefined);
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.server = null;
  }

  // ---------------------------------------------------------------- the test's side: users and chats

  user(id: number, firstName = `User${id}`, languageCode = 'en'): TgUser {
    const user: TgUser = {
      id,
      is_bot: false,
      first_name: firstName,
      username: `user${id}`,
      language_code: languageCode,
    };
    this.users.set(id, user);
    return user;
  }

  privateChat(user: TgUser): TgChat {
    const chat: TgChat = {
      id: user.id,
      type: 'private',
      first_name: user.first_name,
      ...(user.username ? { username: user.username } : {}),
    };
    this.chats.set(chat.id, chat);
    return chat;
  }

  /** A group chat the bot is a member of; `by` adds the bot (a my_chat_member update is sent). */
  async group(id: number, title: string, by: TgUser): Promise<TgChat> {
    if (id >= 0) throw new Error('group chat ids are negative');
    const chat: TgChat = { id, type: 'supergroup', title };
    this.chats.set(id, chat);
    this.groupsWithBot.add(id);
    await this.push({
      my_chat_member: {
        chat,
        from: by,
        date: this.now(),
        old_chat_member: { status: 'left', user: this.me },
        new_chat_member: { status: 'member', user: this.me },
      },
    });
    return chat;
  }

  /** Someone removes the bot from a group (Telegram tells the bot with my_chat_member). */
  async removeFromGroup(id: number, by: TgUser): Promise<void> {
    const chat = this.chats.get(id);
    if (!chat) throw new Error(`no group ${id}`);
    this.groupsWithBot.delete(id);
    await this.push({
      my_chat_member: {
        chat,
        from: by,
        date: this.now(),
        old_chat_member: { status: 'member', user: this.me },
        new_chat_member: { status: 'kicked', user: this.me },
      },
    });
  }

  /** The user opened a private chat with the bot earlier (pressed Start), so it may write first. */
  startedBot(userId: number): void {
    this.started.add(userId);
  }

  blockBot(userId: number): void {
    this.blocked.add(userId);
  }

  /**
   * The user sends a text message (to the bot in private, or in a group), with Telegram's entities
   * for a leading command and `@name` mentions; `replyTo` makes it a reply to that message.
   */
  async sendText(
    from: TgUser,
    text: string,
    chat: TgChat = this.privateChat(from),
    options: { replyTo?: TgMessage } = {},
  ): Promise<TgUpdate> {
    if (chat.type === 'private') this.started.add(from.id);
    const entities = userEntities(text);
    const message = this.store({
      chat,
      from,
      text,
      ...(entities.length > 0 ? { entities } : {}),
      ...(options.replyTo ? { reply_to_message: structuredClone(options.replyTo) } : {}),
    });
    return this.push({ message });
  }

  /** Stores a file as Telegram would (an id, a path to download it from). */
  private storeFile(data: Uint8Array, extension: string, declaredSize?: number): StoredFile {
    const n = this.nextFile++;
    const file: StoredFile = {
      fileId: `BQACAgIAAxkBAAI${String(n).padStart(6, '0')}`,
      uniqueId: `AgAD${String(n).padStart(4, '0')}`,
      path: `${extension === 'jpg' ? 'photos' : 'documents'}/file_${n}.${extension}`,
      data: Buffer.from(data),
      size: declaredSize ?? data.byteLength,
    };
    this.files.set(file.fileId, file);
    return file;
  }

  /** The user sends a photo (Telegram keeps a thumbnail and the full size, largest last). */
  async sendPhoto(
    from: TgUser,
    data: Uint8Array,
    options: { caption?: string; chat?: TgChat; declaredSize?: number } = {},
  ): Promise<TgUpdate> {
    const chat = options.chat ?? this.privateChat(from);
    if (chat.type === 'private') this.started.add(from.id);
    const thumb = this.storeFile(data.subarray(0, Math.min(64, data.byteLength)), 'jpg');
    const full = this.storeFile(data, 'jpg', options.declaredSize);
    const caption = options.caption;
    const entities = caption ? userEntities(caption) : [];
    const message = this.store({
      chat,
      from,
      photo: [
        {
          file_id: thumb.fileId,
          file_unique_id: thumb.uniqueId,
          width: 90,
          height: 60,
          file_size: thumb.size,
        },
        {
          file_id: full.fileId,
          file_unique_id: full.uniqueId,
          width: 1280,
          height: 853,
          file_size: full.size,
        },
      ],
      ...(caption ? { caption } : {}),
      ...(entities.length > 0 ? { caption_entities: entities } : {}),
    });
    return this.push({ message });
  }

  /** The user sends a file as a document (a PDF or CSV statement, an uncompressed picture). */
  async sendDocument(
    from: TgUser,
    data: Uint8Array,
    options: {
      name: string;
      mimeType?: string;
      caption?: string;
      chat?: TgChat;
      declaredSize?: number;
    },
  ): Promise<TgUpdate> {
    const chat = options.chat ?? this.privateChat(from);
    if (chat.type === 'private') this.started.add(from.id);
    const file = this.storeFile(data, options.name.split('.').pop() ?? 'bin', options.declaredSize);
    const caption = options.caption;
    const entities = caption ? userEntities(caption) : [];
    const message = this.store({
      chat,
      from,
      document: {
        file_id: file.fileId,
        file_unique_id: file.uniqueId,
        file_name: options.name,
        ...(options.mimeType ? { mime_type: options.mimeType } : {}),
        file_size: file.size,
      },
      ...(caption ? { caption } : {}),
      ...(entities.length > 0 ? { caption_entities: entities } : {}),
    });
    return this.push({ message });
  }

  /** The user presses an inline button; it must exist on the bot's message as it is now. */
  async press(from: TgUser, message: TgMessage, data: string): Promise<TgUpdate> {
    const current = this.messages.get(`${message.chat.id}:${message.message_id}`);
    if (!current)
      throw new Error(`message ${message.chat.id}:${message.message_id} does not exist`);
    if (!current.reply_markup?.inline_keyboard.flat().some((b) => b.callback_data === data)) {
      throw new Error(`message ${current.message_id} has no button with callback_data ${data}`);
    }
    return this.callback(from, current, data);
  }

  private callback(from: TgUser, message: TgMessage, data: string): Promise<TgUpdate> {
    const id = randomUUID();
    this.openQueries.add(id);
    return this.push({
      callback_query: {
        id,
        from,
        message: structuredClone(message),
        chat_instance: `ci${message.chat.id}`,
        data,
      },
    });
  }

  /**
   * Presses a button of an old copy of a message, as a client that has not yet seen the message
   * edited (a slow phone, a double tap) does: the callback carries the old keyboard's data.
   */
  async pressStale(from: TgUser, old: TgMessage, data: string): Promise<TgUpdate> {
    if (!old.reply_markup?.inline_keyboard.flat().some((b) => b.callback_data === data))
      throw new Error(`the old copy of message ${old.message_id} has no button ${data}`);
    return this.callback(from, old, data);
  }

  /** Presses the button whose label contains `label`. */
  async pressButton(from: TgUser, message: TgMessage, label: string | RegExp): Promise<TgUpdate> {
    const current = this.messages.get(`${message.chat.id}:${message.message_id}`) ?? message;
    const button = current.reply_markup?.inline_keyboard
      .flat()
      .find((b) => (typeof label === 'string' ? b.text.includes(label) : label.test(b.text)));
    if (!button?.callback_data) {
      const labels = current.reply_markup?.inline_keyboard.flat().map((b) => b.text) ?? [];
      throw new Error(
        `no button "${String(label)}" on message ${current.message_id} (has: ${labels.join(' | ')})`,
      );
    }
    return this.press(from, current, button.callback_data);
  }

  // ---------------------------------------------------------------- the test's side: what the bot did

  /** The bot's messages in a chat, oldest first, as they are now (edits applied). */
  botMessages(chatId: number): TgMessage[] {
    return [...this.messages.values()]
      .filter((m) => m.chat.id === chatId && m.from?.id === this.me.id)
      .sort((a, b) => a.message_id - b.message_id);
  }

  /** The files the bot sent to a chat, in order: each document's name and bytes. */
  botDocuments(chatId: number): Array<{ name: string; data: Buffer }> {
    return this.botMessages(chatId).flatMap((m) => {
      const file = m.document ? this.files.get(m.document.file_id) : undefined;
      return file && m.document ? [{ name: m.document.file_name ?? '', data: file.data }] : [];
    });
  }

  lastBotMessage(chatId: number): TgMessage | undefined {
    return this.botMessages(chatId).at(-1);
  }

  message(chatId: number, messageId: number): TgMessage | undefined {
    return this.messages.get(`${chatId}:${messageId}`);
  }

  /** The draft showing in a chat now (a message the bot sends there ends it). */
  draftOf(chatId: number): TgDraft | undefined {
    return this.openDrafts.get(chatId);
  }

  draftsIn(chatId: number): TgDraft[] {
    return this.drafts.filter((d) => d.chatId === chatId);
  }

  callsOf(method: string): ApiCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  commandsFor(
    scopeType = 'default',
    languageCode = '',
  ): Array<{ command: string; description: string }> {
    return this.commands.get(`${scopeType}|${languageCode}`) ?? [];
  }

  get menu(): unknown {
    return this.menuButton;
  }

  get pendingUpdates(): number {
    return this.updates.length;
  }

  get webhookUrl(): string | null {
    return this.webhook?.url ?? null;
  }

  /** The next `times` calls of `method` fail with this error (429 gets retry_after). */
  failNext(
    method: string,
    fault: { error_code?: number; description?: string; retry_after?: number; times?: number } = {},
  ): void {
    const code = fault.error_code ?? 429;
    const retryAfter = fault.retry_after ?? (code === 429 ? 1 : undefined);
    this.faults.push({
      method,
      error_code: code,
      description:
        fault.description ??
        (code === 429 ? `Too Many Requests: retry after ${retryAfter ?? 1}` : 'Bad Request'),
      ...(retryAfter !== undefined ? { retry_after: retryAfter } : {}),
      times: fault.times ?? 1,
    });
  }

  /** Resolves once `predicate` holds; it is checked after every API call and update. */
  waitFor(predicate: (api: this) => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
    if (predicate(this)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (!predicate(this)) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`waitFor timed out after ${timeoutMs} ms: ${what}`));
      }, timeoutMs);
      this.waiters.add(check);
    });
  }

  /** Waits for the bot's n-th message in a chat (counting from 1) and returns it. */
  async waitForMessages(chatId: number, count: number, timeoutMs = 5000): Promise<TgMessage[]> {
    await this.waitFor(
      (api) => api.botMessages(chatId).length >= count,
      timeoutMs,
      `${count} bot messages in chat ${chatId}`,
    );
    return this.botMessages(chatId);
  }

  /** Sends a text and waits until the bot has answered with `replies` new messages. */
  async ask(
    from: TgUser,
    text: string,
    chat: TgChat = this.privateChat(from),
    replies = 1,
  ): Promise<TgMessage> {
    const before = this.botMessages(chat.id).length;
    await this.sendText(from, text, chat);
    const all = await this.waitForMessages(chat.id, before + replies);
    const last = all.at(-1);
    if (!last) throw new Error('no reply');
    return last;
  }

  /** Presses a button and waits until its callback query is answered (the bot is done with it). */
  async tap(from: TgUser, message: TgMessage, label: string | RegExp): Promise<void> {
    const update = await this.pressButton(from, message, label);
    const id = update.callback_query?.id ?? '';
    await this.waitFor(
      (api) => api.answered.some((a) => a.id === id),
      5000,
      `answer to press "${String(label)}"`,
    );
  }

  // ---------------------------------------------------------------- internals

  private now(): number {
    return Math.floor(Date.now() / 1000);
  }

  private notify(): void {
    for (const waiter of [...this.waiters]) waiter();
  }

  private newMessageId(chatId: number): number {
    const n = this.nextMessageId.get(chatId) ?? 1;
    this.nextMessageId.set(chatId, n + 1);
    return n;
  }

  private store(partial: Omit<TgMessage, 'message_id' | 'date'>): TgMessage {
    const message: TgMessage = {
      message_id: this.newMessageId(partial.chat.id),
      date: this.now(),
      ...partial,
    };
    this.messages.set(`${message.chat.id}:${message.message_id}`, message);
    return message;
  }

  private updateType(update: TgUpdate): string {
    return Object.keys(update).find((k) => k !== 'update_id') ?? 'unknown';
  }

  private async push(payload: Omit<TgUpdate, 'update_id'>): Promise<TgUpdate> {
    const update: TgUpdate = { update_id: this.nextUpdateId++, ...payload };
    if (!this.allowedUpdates.includes(this.updateType(update))) {
      this.notify();
      return update;
    }
    if (this.webhook) {
      const hook = this.webhook;
      this.webhookQueue = this.webhookQueue.then(() => this.deliver(hook, update));
      await this.webhookQueue;
    } else {
      this.updates.push(update);
      this.pendingPoll?.wake();
    }
    this.notify();
    return update;
  }

  /** Posts one update to the webhook, retrying a failed delivery like Telegram does. */
  private async deliver(hook: { url: string; secret?: string }, update: TgUpdate): Promise<void> {
    for (let attempt = 0; attempt <= this.webhookRetries; attempt += 1) {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (hook.secret) headers['x-telegram-bot-api-secret-token'] = hook.secret;
      let status: number;
      try {
        const response = await fetch(hook.url, {
          method: 'POST',
          headers,
          body: JSON.stringify(update),
        });
        status = response.status;
        await response.arrayBuffer();
      } catch {
        status = 0; // unreachable: Telegram retries too
      }
      this.webhookStatuses.push(status);
      this.notify();
      if (status >= 200 && status < 300) return;
      if (status === 401 || status === 403) return;
      await new Promise((r) => setTimeout(r, this.webhookRetryMs));
    }
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    if (res.headersSent) return;
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private async params(req: IncomingMessage, url: URL): Promise<Params> {
    const query: Params = Object.fromEntries(url.searchParams);
    if (req.method === 'GET' || req.method === 'HEAD') return query;
    const type = req.headers['content-type'] ?? '';
    const headers = new Headers();
    if (type) headers.set('content-type', type);
    const body = new Request(url, {
      method: 'POST',
      headers,
      body: Readable.toWeb(req) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    if (type.includes('application/json')) {
      const text = await body.text();
      return text.trim() === '' ? query : { ...query, ...(JSON.parse(text) as Params) };
    }
    if (type.includes('multipart/form-data')) {
      // Parsed by hand: undici's FormData parser refuses grammY's multipart framing, which
      // Telegram accepts.
      const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
      if (!boundary) return query;
      return { ...query, ...parseMultipart(Buffer.from(await body.arrayBuffer()), boundary) };
    }
    if (type.includes('application/x-www-form-urlencoded')) {
      const form = await body.formData();
      const out: Params = { ...query };
      for (const [key, value] of form)
        out[key] =
          typeof value === 'string'
            ? value
            : { upload: Buffer.from(await value.arrayBuffer()), filename: value.name };
      return out;
    }
    await body.arrayBuffer();
    return query;
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const download = /^\/file\/bot([^/]+)\/(.+)$/.exec(url.pathname);
    if (download) {
      const file = [...this.files.values()].find((f) => f.path === download[2]);
      if (download[1] !== this.token || !file || req.method !== 'GET')
        return this.send(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        'content-length': String(file.data.byteLength),
      });
      res.end(file.data);
      return;
    }
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(url.pathname);
    if (!match)
      return this.send(res, 404, { ok: false, error_code: 404, description: 'Not Found' });
    if (match[1] !== this.token)
      return this.send(res, 401, { ok: false, error_code: 401, description: 'Unauthorized' });
    const method = match[2] ?? '';
    const params = await this.params(req, url);
    for (const key of [
      'reply_markup',
      'commands',
      'allowed_updates',
      'scope',
      'menu_button',
      'link_preview_options',
      'reply_parameters',
      'entities',
    ]) {
      const value = params[key];
      if (typeof value === 'string') {
        try {
          params[key] = JSON.parse(value);
        } catch {
          return this.send(res, 400, {
            ok: false,
            error_code: 400,
            description: `Bad Request: can't parse ${key} JSON object`,
          });
        }
      }
    }
    const call: ApiCall = { method, params, at: Date.now(), ok: true };
    try {
      const faultIndex = this.faults.findIndex((f) => f.method === method);
      const fault = this.faults[faultIndex];
      if (fault) {
        fault.times -= 1;
        if (fault.times <= 0) this.faults.splice(faultIndex, 1);
        throw new TgError(
          fault.error_code,
          fault.description,
          fault.retry_after !== undefined ? { retry_after: fault.retry_after } : undefined,
        );
      }
      const handler = this.methods[method];
      if (!handler) throw new TgError(404, 'Not Found: method not found');
      const result = await handler(params);
      if (method !== 'getUpdates' || (Array.isArray(result) && result.length > 0))
        this.calls.push(call);
      this.send(res, 200, { ok: true, result });
    } catch (error) {
      if (!(error instanceof TgError)) throw error;
      call.ok = false;
      call.description = error.description;
      this.calls.push(call);
      this.send(res, error.code, {
        ok: false,
        error_code: error.code,
        description: error.description,
        ...(error.parameters ? { parameters: error.parameters } : {}),
      });
    } finally {
      this.notify();
    }
  }

  private chatFor(chatId: unknown): TgChat {
    const id = Number(chatId);
    const user = this.users.get(id);
    const chat =
      (Number.isFinite(id) ? this.chats.get(id) : undefined) ??
      (user ? this.privateChat(user) : undefined);
    if (!chat) throw new TgError(400, 'Bad Request: chat not found');
    if (chat.type === 'private') {
      if (this.blocked.has(id)) throw new TgError(403, 'Forbidden: bot was blocked by the user');
      if (!this.started.has(id))
        throw new TgError(403, "Forbidden: bot can't initiate conversation with a user");
    } else if (!this.groupsWithBot.has(id))
      throw new TgError(403, 'Forbidden: bot is not a member of the supergroup chat');
    return chat;
  }

  private visibleText(params: Params): string {
    const raw = params.text;
    if (typeof raw !== 'string' || raw.trim() === '')
      throw new TgError(400, 'Bad Request: message text is empty');
    const text = params.parse_mode === 'HTML' ? parseHtml(raw) : raw;
    if (text.trim() === '') throw new TgError(400, 'Bad Request: message text is empty');
    if ([...text].length > MAX_TEXT) throw new TgError(400, 'Bad Request: message is too long');
    return text.trim();
  }

  private markup(value: unknown, chat: TgChat): TgMarkup | undefined {
    if (value === undefined || value === null) return undefined;
    const keyboard = (value as { inline_keyboard?: unknown }).inline_keyboard;
    if (!Array.isArray(keyboard)) return undefined;
    for (const row of keyboard as unknown[]) {
      if (!Array.isArray(row))
        throw new TgError(
          400,
          'Bad Request: field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays',
        );
      for (const button of row as TgButton[]) {
        if (typeof button.text !== 'string' || button.text.length === 0)
          throw new TgError(400, 'Bad Request: text buttons are unallowed in the inline keyboard');
        if (
          button.callback_data !== undefined &&
          (Buffer.byteLength(button.callback_data) > MAX_CALLBACK_DATA ||
            button.callback_data.length === 0)
        ) {
          throw new TgError(400, 'Bad Request: BUTTON_DATA_INVALID');
        }
        if (button.url !== undefined && !/^(https?|tg):\/\//.test(button.url))
          throw new TgError(400, 'Bad Request: BUTTON_URL_INVALID');
        if (button.web_app !== undefined) {
          if (chat.type !== 'private') throw new TgError(400, 'Bad Request: BUTTON_TYPE_INVALID');
          if (!button.web_app.url.startsWith('https://')) {
            throw new TgError(
              400,
              `Bad Request: inline keyboard button Web App URL '${button.web_app.url}' is invalid: Only HTTPS links are allowed`,
            );
          }
        }
      }
    }
    // An empty keyboard removes the keyboard, as on Telegram.
    if ((keyboard as unknown[]).every((row) => (row as unknown[]).length === 0)) return undefined;
    return { inline_keyboard: structuredClone(keyboard as TgButton[][]) };
  }

  private editable(params: Params): TgMessage {
    const message = this.messages.get(`${Number(params.chat_id)}:${Number(params.message_id)}`);
    if (!message) throw new TgError(400, 'Bad Request: message to edit not found');
    if (message.from?.id !== this.me.id)
      throw new TgError(400, "Bad Request: message can't be edited");
    return message;
  }

  private readonly methods: Record<string, (p: Params) => unknown> = {
    getMe: () => this.me,
    getUpdates: async (p) => {
      if (this.webhook)
        throw new TgError(
          409,
          "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
        );
      const offset = Number(p.offset ?? 0);
      const limit = Math.min(100, Math.max(1, Number(p.limit ?? 100)));
      const timeout = Math.max(0, Number(p.timeout ?? 0));
      if (Array.isArray(p.allowed_updates))
        this.allowedUpdates =
          p.allowed_updates.length > 0 ? (p.allowed_updates as string[]) : DEFAULT_UPDATE_TYPES;
      if (offset > 0) {
        while (this.updates.length > 0 && (this.updates[0]?.update_id ?? 0) < offset)
          this.updates.shift();
      }
      // A second poller terminates the first one, as on Telegram.
      this.pendingPoll?.terminate();
      if (this.updates.length === 0 && timeout > 0) {
        const outcome = await new Promise<'wake' | 'terminated'>((resolve) => {
          const timer = setTimeout(() => finish('wake'), timeout * 1000);
          const finish = (how: 'wake' | 'terminated'): void => {
            clearTimeout(timer);
            if (this.pendingPoll === poll) this.pendingPoll = null;
            resolve(how);
          };
          const poll = { wake: () => finish('wake'), terminate: () => finish('terminated') };
          this.pendingPoll = poll;
        });
        if (outcome === 'terminated')
          throw new TgError(
            409,
            'Conflict: terminated by other getUpdates request; make sure that only one bot instance is running',
          );
      }
      return structuredClone(this.updates.slice(0, limit));
    },
    setWebhook: (p) => {
      const url = String(p.url ?? '');
      const secret = p.secret_token === undefined ? undefined : String(p.secret_token);
      if (secret !== undefined && !/^[A-Za-z0-9_-]{1,256}$/.test(secret))
        throw new TgError(400, 'Bad Request: secret token contains unallowed characters');
      if (url === '') {
        this.webhook = null;
        return true;
      }
      if (!/^https?:\/\//.test(url))
        throw new TgError(
          400,
          'Bad Request: bad webhook: An HTTPS URL must be provided for webhook',
        );
      if (Array.isArray(p.allowed_updates))
        this.allowedUpdates =
          p.allowed_updates.length > 0 ? (p.allowed_updates as string[]) : DEFAULT_UPDATE_TYPES;
      if (p.drop_pending_updates === true || p.drop_pending_updates === 'true')
        this.updates.length = 0;
      this.webhook = { url, ...(secret !== undefined ? { secret } : {}) };
      this.pendingPoll?.terminate();
      const queued = this.updates.splice(0);
      const hook = this.webhook;
      for (const update of queued)
        this.webhookQueue = this.webhookQueue.then(() => this.deliver(hook, update));
      return true;
    },
    deleteWebhook: (p) => {
      this.webhook = null;
      if (p.drop_pending_updates === true || p.drop_pending_updates === 'true')
        this.updates.length = 0;
      return true;
    },
    getWebhookInfo: () => ({
      url: this.webhook?.url ?? '',
      has_custom_certificate: false,
      pending_update_count: this.updates.length,
    }),
    sendMessage: (p) => {
      const chat = this.chatFor(p.chat_id);
      const text = this.visibleText(p);
      const markup = this.markup(p.reply_markup, chat);
      const message = this.store({
        chat,
        from: {
          id: this.me.id,
          is_bot: true,
          first_name: this.me.first_name,
          ...(this.me.username ? { username: this.me.username } : {}),
        },
        text,
        ...(markup ? { reply_markup: markup } : {}),
        ...(typeof p.text === 'string' ? { source: p.text } : {}),
      });
      this.sentCount += 1;
      this.openDrafts.delete(chat.id);
      return structuredClone(message);
    },
    /** The bot sends a file: an upload (multipart, grammY's InputFile) or a known file_id. */
    sendDocument: (p) => {
      const chat = this.chatFor(p.chat_id);
      // grammY names the upload "attach://<part>" and sends it as that part of the form.
      const attached = typeof p.document === 'string' ? /^attach:\/\/(.+)$/.exec(p.document) : null;
      const doc = attached ? p[attached[1] ?? ''] : p.document;
      let file: StoredFile | undefined;
      let name = 'file';
      if (
        typeof doc === 'object' &&
        doc !== null &&
        'upload' in doc &&
        Buffer.isBuffer(doc.upload)
      ) {
        name = 'filename' in doc && typeof doc.filename === 'string' ? doc.filename : name;
        file = this.storeFile(doc.upload, name.split('.').pop() ?? 'bin');
      } else if (typeof doc === 'string') file = this.files.get(doc);
      if (!file) throw new TgError(400, 'Bad Request: wrong file identifier/HTTP URL specified');
      const message = this.store({
        chat,
        from: {
          id: this.me.id,
          is_bot: true,
          first_name: this.me.first_name,
          ...(this.me.username ? { username: this.me.username } : {}),
        },
        document: {
          file_id: file.fileId,
          file_unique_id: file.uniqueId,
          file_name: name,
          file_size: file.size,
        },
        ...(typeof p.caption === 'string' ? { caption: p.caption } : {}),
      });
      this.sentCount += 1;
      return structuredClone(message);
    },
    sendMessageDraft: (p) => {
      const chat = this.chatFor(p.chat_id);
      if (chat.type !== 'private') throw new TgError(400, 'Bad Request: TEXTDRAFT_PEER_INVALID');
      const draftId = Number(p.draft_id);
      if (!Number.isInteger(draftId) || draftId === 0)
        throw new TgError(400, 'Bad Request: DRAFT_ID_INVALID');
      const raw = typeof p.text === 'string' ? p.text : '';
      // An empty draft shows Telegram's "Thinking…" placeholder.
      const text = raw === '' ? '' : p.parse_mode === 'HTML' ? parseHtml(raw) : raw;
      if ([...text].length > MAX_TEXT) throw new TgError(400, 'Bad Request: message is too long');
      const draft: TgDraft = { chatId: chat.id, draftId, text: text.trim(), at: Date.now() };
      this.drafts.push(draft);
      this.openDrafts.set(chat.id, draft);
      return true;
    },
    getFile: (p) => {
      const file = this.files.get(String(p.file_id ?? ''));
      if (!file) throw new TgError(400, 'Bad Request: invalid file_id');
      if (file.size > MAX_DOWNLOAD) throw new TgError(400, 'Bad Request: file is too big');
      return {
        file_id: file.fileId,
        file_unique_id: file.uniqueId,
        file_size: file.size,
        file_path: file.path,
      };
    },
    editMessageText: (p) => {
      const message = this.editable(p);
      const text = this.visibleText(p);
      const markup = this.markup(p.reply_markup, message.chat);
      if (
        message.text === text &&
        JSON.stringify(message.reply_markup) === JSON.stringify(markup)
      ) {
        throw new TgError(
          400,
          'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
        );
      }
      message.text = text;
      if (typeof p.text === 'string') message.source = p.text;
      message.edit_date = this.now();
      if (markup) message.reply_markup = markup;
      else delete message.reply_markup;
      return structuredClone(message);
    },
    editMessageReplyMarkup: (p) => {
      const message = this.editable(p);
      const markup = this.markup(p.reply_markup, message.chat);
      if (JSON.stringify(message.reply_markup) === JSON.stringify(markup)) {
        throw new TgError(
          400,
          'Bad Request: message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message',
        );
      }
      if (markup) message.reply_markup = markup;
      else delete message.reply_markup;
      message.edit_date = this.now();
      return structuredClone(message);
    },
    deleteMessage: (p) => {
      if (!this.messages.delete(`${Number(p.chat_id)}:${Number(p.message_id)}`))
        throw new TgError(400, 'Bad Request: message to delete not found');
      return true;
    },
    answerCallbackQuery: (p) => {
      const id = String(p.callback_query_id ?? '');
      if (!this.openQueries.delete(id))
        throw new TgError(
          400,
          'Bad Request: query is too old and response timeout expired or query ID is invalid',
        );
      if (typeof p.text === 'string' && p.text.length > 200)
        throw new TgError(400, 'Bad Request: MESSAGE_TOO_LONG');
      this.answered.push({ id, ...(typeof p.text === 'string' ? { text: p.text } : {}) });
      return true;
    },
    sendChatAction: (p) => {
      this.chatFor(p.chat_id);
      if (typeof p.action !== 'string' || p.action.length === 0)
        throw new TgError(400, 'Bad Request: wrong parameter action in request');
      return true;
    },
    setMyCommands: (p) => {
      const commands = p.commands;
      if (!Array.isArray(commands) || commands.length > 100)
        throw new TgError(400, 'Bad Request: BOT_COMMANDS_TOO_MUCH');
      for (const c of commands as Array<{ command?: unknown; description?: unknown }>) {
        if (typeof c.command !== 'string' || !/^[a-z0-9_]{1,32}$/.test(c.command))
          throw new TgError(400, 'Bad Request: BOT_COMMAND_INVALID');
        if (
          typeof c.description !== 'string' ||
          c.description.length < 1 ||
          c.description.length > 256
        ) {
          throw new TgError(400, 'Bad Request: BOT_COMMAND_DESCRIPTION_INVALID');
        }
      }
      const scope = (p.scope as { type?: string } | undefined)?.type ?? 'default';
      this.commands.set(
        `${scope}|${typeof p.language_code === 'string' ? p.language_code : ''}`,
        structuredClone(commands as Array<{ command: string; description: string }>),
      );
      return true;
    },
    getMyCommands: (p) =>
      this.commandsFor(
        (p.scope as { type?: string } | undefined)?.type ?? 'default',
        typeof p.language_code === 'string' ? p.language_code : '',
      ),
    deleteMyCommands: (p) => {
      this.commands.delete(
        `${(p.scope as { type?: string } | undefined)?.type ?? 'default'}|${typeof p.language_code === 'string' ? p.language_code : ''}`,
      );
      return true;
    },
    setChatMenuButton: (p) => {
      const button = p.menu_button as { type?: string; web_app?: { url?: string } } | undefined;
      if (button?.type === 'web_app' && !String(button.web_app?.url ?? '').startsWith('https://'))
        throw new TgError(400, 'Bad Request: WEBAPP_URL_INVALID');
      this.menuButton = button ?? { type: 'default' };
      return true;
    },
    getChatMenuButton: () => this.menuButton,
  };
}
