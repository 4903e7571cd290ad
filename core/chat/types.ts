import type { Assistant } from '../assistant/index.ts';
import type { Actor, Channel as ChannelName } from '../kernel/actor.ts';
import type { Locale } from '../i18n/index.ts';

/**
 * A button as the engine describes it; each channel renders it its own way (an inline keyboard on
 * Telegram, a numbered choice in a terminal). `payload` is a short reference to a `flows` row
 * (at most 64 bytes, Telegram's limit), so any process can answer a press.
 */
export type Button =
  | { kind: 'action'; label: string; payload: string }
  | { kind: 'url'; label: string; url: string }
  /** Opens the Mini App; channels without Mini Apps (or group chats) render it as a link. */
  | { kind: 'webapp'; label: string; url: string };

/** A card Exhale writes about a change or a record: a title and short lines, never model text. */
export interface Card {
  title: string;
  lines: string[];
  /** A value to copy (a token), shown apart in a fixed-width font. */
  code?: string;
}

/**
 * A file the engine hands a member (an export). Each channel delivers it its own way: a document
 * on Telegram, a file written to a folder in the terminal; a channel that cannot send files says so.
 */
export interface ReplyFile {
  /** A plain file name (no folders), such as "exhale-2026-03-02.json". */
  name: string;
  mediaType: string;
  bytes: Uint8Array;
}

/** One message of the engine: text, a card, or both, with rows of buttons, and files after them. */
export interface Reply {
  text?: string;
  card?: Card;
  buttons?: Button[][];
  files?: ReplyFile[];
}

/** Where a channel put a message, so the engine can edit it later. */
export interface SentRef {
  chatId: string;
  messageId: string;
}

/**
 * A platform's own words, for texts the engine writes (`channelWords.ts`): Slack calls its group
 * chats "channels", and a command is typed `/exhale add` there (a leading `/` opens Slack's own).
 */
export interface ChannelWords {
  /** What a group chat is called. Unset: "group". */
  group?: 'group' | 'channel';
  /** What stands before a command's name when typed. Unset: "/". */
  commandPrefix?: string;
}

/** What the engine needs from a channel, bound to one conversation (a chat). */
export interface Channel {
  readonly name: ChannelName;
  /**
   * True when what it shows is not kept as messages a person could delete (a terminal's lines):
   * texts then never ask to "delete this message". Unset for chat apps.
   */
  readonly transient?: boolean;
  /** How this platform names a group chat and writes a command in texts; unset: "group", `/add`. */
  readonly words?: ChannelWords;
  send(reply: Reply): Promise<SentRef | null>;
  /** Replaces a message the engine sent earlier (text, card and buttons). */
  edit(ref: SentRef, reply: Reply): Promise<void>;
  /**
   * The least time between two edits of one message that the platform takes well (Telegram
   * throttles bursts); progress messages are edited no more often. Unset: a second.
   */
  readonly editEveryMs?: number;
  /** Takes the buttons off a message (after its one-time action ran). */
  clearButtons?(ref: SentRef): Promise<void>;
  /** Shows that an answer is coming (Telegram's "typing…"). */
  typing(): Promise<void>;
  /** A short notice tied to a button press (a toast on Telegram); may be ignored. */
  notice?(text: string): Promise<void>;
  /**
   * Deletes a message the member sent (the one holding an API key) where the platform lets the
   * bot; true when it is gone. Absent: the channel keeps no such messages or cannot delete them.
   */
  deleteMessage?(ref: SentRef): Promise<boolean>;
  /** A link that starts a private chat with `/start <code>`; null when the channel has none. */
  deepLink(code: string): string | null;
  /**
   * Starts showing an answer while it is being written (a draft, an edited message, text printed
   * as it comes). Absent: the engine sends the finished answer as an ordinary message.
   */
  live?(): LiveText;
}

/** An answer shown as it is written. The channel decides how often the platform is updated. */
export interface LiveText {
  /** A piece of the answer. Never waits for the platform and never throws. */
  write(delta: string): void;
  /**
   * The answer is complete: shows `text` as a finished message in place of the live view and says
   * where it is; null when `text` is empty and nothing was shown.
   */
  finish(text: string): Promise<SentRef | null>;
  /** The answer failed: no more updates (what was shown stays). */
  abort(): Promise<void>;
}

/** A file a member sent (a statement, a screenshot), fetched only when it is used. */
export interface IncomingFile {
  name?: string | undefined;
  /** The platform's claim; the assistant recognises a file by its bytes. */
  mediaType?: string | undefined;
  /** The size the platform reported, checked before downloading; null when unknown. */
  size: number | null;
  download(): Promise<Uint8Array>;
}

/** The person talking, as their channel identifies them. */
export interface Person {
  channel: ChannelName;
  /** The platform's user id (Telegram user id); null for a local terminal. */
  externalId: string | null;
  displayName: string;
  /** The platform's language hint, such as Telegram's `language_code`. */
  languageCode?: string | undefined;
  /**
   * A known actor (the terminal's local owner). When absent the engine finds the member by the
   * external id. The engine replaces it after onboarding creates or joins a household.
   */
  actor?: Actor | undefined;
}

/** The chat a message arrived in. */
export interface Place {
  kind: 'private' | 'group';
  /** The platform chat id; unique per channel. */
  chatId: string;
  title?: string | undefined;
}

export interface Conversation {
  who: Person;
  where: Place;
}

/**
 * What arrives from a member. `addressed`: in a group, the message was meant for the bot (it
 * mentions the bot or replies to it); free text and files in a group are ignored otherwise.
 */
export type ChatEvent =
  | {
      kind: 'text';
      text: string;
      addressed?: boolean | undefined;
      /** Where the member's message is, so the engine can delete one holding a secret. */
      message?: SentRef | undefined;
    }
  | { kind: 'file'; file: IncomingFile; caption: string; addressed?: boolean | undefined }
  | { kind: 'press'; payload: string; message: SentRef | null };

/** The resolved speaker of one event. */
export interface Speaker {
  actor: Actor;
  locale: Locale;
  /** True when the person has no household yet. */
  newcomer: boolean;
  memberName: string | null;
}

/** What the engine needs of the built-in assistant; core/assistant's `Assistant` fits as it is. */
export type ChatAssistant = Pick<
  Assistant,
  'isConfigured' | 'ask' | 'confirm' | 'discard' | 'undo'
> &
  /** The set-up's test call (/assistant); without it the set-up says it could not check. */
  Partial<Pick<Assistant, 'check'>> &
  /** Tidies a statement's merchant names (the review card); without it they stay as read. */
  Partial<Pick<Assistant, 'tidyNames'>>;
