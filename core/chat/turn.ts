import type { Actor } from '../kernel/actor.ts';
import type { Core, InvokeOptions, InvokeResult } from '../kernel/core.ts';
import { type Locale, t, type TextParams } from '../i18n/index.ts';
import type { Freshness } from '../kernel/readCache.ts';
import { getHousehold } from '../ops/household/getHousehold.ts';
import type { Database } from '../store/connection.ts';
import type { Owner } from './flows.ts';
import { commandText, groupWords, type MenuOptions } from './channelWords.ts';
import { conversationKeyOf, personKey } from './identity.ts';
import { ReplyBuilder } from './reply.ts';
import type { Channel as ChannelName } from '../kernel/actor.ts';
import type { Channel, ChatAssistant, Conversation, SentRef, Speaker } from './types.ts';

/** Wait this long before showing "typing…": quick answers need no indicator (and no API call). */
const TYPING_AFTER_MS = 300;

/** What the engine's features need while answering one event. */
export interface EngineContext {
  readonly core: Core;
  readonly miniAppUrl: string | null;
  /** Where Exhale's own web is served (EXHALE_PUBLIC_URL or the local address): sign-in links point there. */
  readonly webUrl: string | null;
  /** The built-in assistant, when the process has one (its cards' buttons need it). */
  readonly assistant: ChatAssistant | null;
  /** The registered features' command menu (/help). */
  commandMenu(
    locale: Locale,
    place: 'private' | 'group',
    channel?: ChannelName,
    options?: MenuOptions,
  ): Array<{ command: string; description: string }>;
  /** Runs a command as if the speaker had typed it (a button that runs one). */
  runCommand(turn: Turn, name: string, args: string): Promise<void>;
}

/** One event being answered: who speaks, where, through which channel, and helpers to reply. */
export class Turn {
  /** Where the member's message being answered is, when the channel said (to delete a secret). */
  incoming: SentRef | null = null;
  private zone: Promise<string> | null = null;

  constructor(
    readonly engine: EngineContext,
    readonly conv: Conversation,
    readonly channel: Channel,
    public speaker: Speaker,
    readonly now: Date,
    /**
     * This event's freshness check (core/kernel/readCache.ts): one `PRAGMA data_version` read
     * serves the speaker lookup and every op this event invokes; never kept past the event.
     */
    readonly fresh?: Freshness,
  ) {}

  get core(): Core {
    return this.engine.core;
  }

  get db(): Database {
    return this.engine.core.db;
  }

  /** The speaker, with a shared audience in a group: others read along, so nothing private shows. */
  get actor(): Actor {
    return this.inGroup ? { ...this.speaker.actor, audience: 'shared' } : this.speaker.actor;
  }

  get locale(): Locale {
    return this.speaker.locale;
  }

  get inGroup(): boolean {
    return this.conv.where.kind === 'group';
  }

  /** Identifies this person in this chat, for the question the engine waits an answer to. */
  get conversationKey(): string {
    return conversationKeyOf(this.conv);
  }

  get owner(): Owner {
    return {
      householdId: this.actor.householdId,
      memberId: this.actor.memberId,
      who: personKey(this.conv.who),
    };
  }

  /** A text in the speaker's language; `{group}`/`{groups}` are the channel's word for a group chat. */
  t(key: string, params?: TextParams): string {
    return t(this.locale, key, { ...groupWords(this.locale, this.channel.words), ...params });
  }

  /** A command as the speaker types it here: `/add`, or `/exhale add` on Slack. */
  command(name: string): string {
    return commandText(this.channel.words, name);
  }

  reply(): ReplyBuilder {
    return new ReplyBuilder();
  }

  async send(reply: ReplyBuilder): Promise<SentRef | null> {
    return this.channel.send(await reply.build(this.db, this.owner, this.now, this.core.newId));
  }

  async say(text: string): Promise<SentRef | null> {
    return this.channel.send({ text });
  }

  /** A short note on a button press: a toast where the channel has one, else a message. */
  async notice(text: string): Promise<void> {
    if (this.channel.notice) await this.channel.notice(text);
    else await this.say(text);
  }

  async edit(ref: SentRef, reply: ReplyBuilder): Promise<void> {
    await this.channel.edit(ref, await reply.build(this.db, this.owner, this.now, this.core.newId));
  }

  /** Edits the pressed message when there is one, else sends a new message. */
  async update(ref: SentRef | null, reply: ReplyBuilder): Promise<void> {
    if (ref) await this.edit(ref, reply);
    else await this.send(reply);
  }

  hasOp(name: string): boolean {
    return this.core.catalog.some((op) => op.name === name);
  }

  invoke(name: string, input: unknown, options?: InvokeOptions): Promise<InvokeResult> {
    return this.core.invoke(name, this.actor, input, {
      fresh: this.fresh,
      ...options,
      surface: 'chat',
    });
  }

  /**
   * The household's time zone, the one instants on cards are written in (UTC before the speaker
   * has a household); read once an event.
   */
  timeZone(): Promise<string> {
    if (this.actor.householdId === null) return Promise.resolve('UTC');
    this.zone ??= this.invoke(getHousehold.name, {}).then(
      ({ output }) => getHousehold.output.parse(output).time_zone,
    );
    return this.zone;
  }

  /** Runs slow work, showing "typing…" only if it takes longer than a moment. */
  async withTyping<T>(work: () => Promise<T>): Promise<T> {
    const timer = setTimeout(
      () => void this.channel.typing().catch(() => undefined),
      TYPING_AFTER_MS,
    );
    try {
      return await work();
    } finally {
      clearTimeout(timer);
    }
  }
}
