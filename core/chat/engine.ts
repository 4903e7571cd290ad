import type { AssistantMessage } from '../assistant/index.ts';
import type { Channel as ChannelName } from '../kernel/actor.ts';
import type { Core } from '../kernel/core.ts';
import { isOpError, OpError } from '../errors/index.ts';
import type { ChangeEvent } from '../kernel/events.ts';
import { type Locale, t } from '../i18n/index.ts';
import type { Reminder } from '../reminders/types.ts';
import { type Action, runsOnce } from './actions.ts';
import type { MenuOptions } from './channelWords.ts';
import { commandMenu, type CommandSpec, offeredCommands } from './commands.ts';
import type { ChatFeature } from './feature.ts';
import { buildFeatureTables, type FeatureTables } from './featureTables.ts';
import {
  type Awaiting,
  BUTTON_TTL_MS,
  claimButtons,
  clearAwaiting,
  isAwaiting,
  loadPress,
  releaseButtons,
  takeAwaiting,
} from './flows.ts';
import { askLive, askWithFile, fileLimit, sizeText } from './features/assistant.ts';
import { forgetGroup, groupRefusal } from './features/groups.ts';
import { helpReply } from './features/help.ts';
import { FEATURES } from './features/index.ts';
import { readSentFile } from './features/statements.ts';
import { importSentFile, wantsImport } from './features/dataFiles.ts';
import { agentNotice, reminderReply } from './features/notices.ts';
import { conversationKeyOf, personKey, resolveSpeaker } from './identity.ts';
import { newFreshness } from '../kernel/readCache.ts';
import { buttonKey, isSigned, verifySigned } from './signedButtons.ts';
import { Turn, type EngineContext } from './turn.ts';
import type {
  Channel,
  ChatAssistant,
  ChatEvent,
  Conversation,
  IncomingFile,
  Reply,
  SentRef,
} from './types.ts';

export interface ChatEngineOptions {
  core: Core;
  /** The Mini App's URL (https); a button opens it in private chats when set. */
  miniAppUrl?: string | null | undefined;
  /** Where Exhale's own web is served (no trailing slash): `/web` links point there. */
  webUrl?: string | null | undefined;
  /**
   * The built-in assistant (`createAssistant(...)` from core/assistant). Free text, and files that
   * are not statements the reader can use, go to it for households where it is configured;
   * elsewhere free text gets the command list.
   */
  assistant?: ChatAssistant | null | undefined;
  log?: ((message: string, error?: unknown) => void) | undefined;
  /** The features the engine answers with; default every feature (`features/index.ts`). */
  features?: readonly ChatFeature[] | undefined;
}

const COMMAND = /^\/([A-Za-z0-9_]{1,32})(?:@[A-Za-z0-9_]+)?(?:\s+([\s\S]*))?$/;

/**
 * The channel-agnostic conversation engine: a member's message or button press in, replies out
 * through the channel. Every change goes through `core.invoke`; every state it keeps between
 * events (button actions, pending questions, group links) is in the database.
 */
export class ChatEngine implements EngineContext {
  readonly core: Core;
  readonly miniAppUrl: string | null;
  readonly webUrl: string | null;
  readonly assistant: ChatAssistant | null;
  private readonly log: (message: string, error?: unknown) => void;
  private readonly tables: FeatureTables;
  /** The features' commands this catalog offers on chat, in menu order. */
  private readonly commands: readonly CommandSpec[];

  constructor(options: ChatEngineOptions) {
    this.core = options.core;
    this.miniAppUrl =
      options.miniAppUrl && options.miniAppUrl.startsWith('https://') ? options.miniAppUrl : null;
    this.webUrl = options.webUrl ? options.webUrl.replace(/\/+$/, '') : null;
    this.assistant = options.assistant ?? null;
    this.log = options.log ?? ((message, error) => console.error(message, error));
    this.tables = buildFeatureTables(options.features ?? FEATURES);
    this.commands = offeredCommands(this.core, this.tables.commands);
  }

  /**
   * Answers one event. Errors an op raises are told to the person in their language; anything
   * else is logged and answered with a short apology. Never throws for a failed op.
   */
  async handle(conv: Conversation, event: ChatEvent, channel: Channel): Promise<void> {
    const now = this.core.clock();
    // Who speaks, from the read cache as strictly as the kernel's membership check (a role or
    // language change, a member who left, counts from this event on), and one freshness check
    // for the lookup and every op of this event.
    const fresh = newFreshness();
    const speaker = await resolveSpeaker(this.core.db, conv.who, { cached: true, fresh });
    const turn = new Turn(this, conv, channel, speaker, now, fresh);
    try {
      switch (event.kind) {
        case 'press':
          await this.press(turn, event.payload, event.message);
          break;
        case 'text':
          turn.incoming = event.message ?? null;
          await this.text(turn, event.text, event.addressed === true);
          break;
        case 'file':
          await this.file(turn, event.file, event.caption, event.addressed === true);
          break;
        default: {
          const unreachable: never = event;
          return unreachable;
        }
      }
    } catch (error) {
      // A press that finds its work already done (a double tap on Undo) is told in a toast where
      // the channel has one, not as a new message.
      if (isOpError(error) && error.key === 'errors.already_undone' && event.kind === 'press') {
        await this.notice(turn, error.render(turn.locale));
        return;
      }
      if (isOpError(error) && error.code !== 'internal') {
        await channel.send({ text: `⚠️ ${error.render(turn.locale)}` });
        return;
      }
      this.log(`chat: ${event.kind} failed`, error);
      await channel.send({ text: t(turn.locale, 'chat.error.internal') });
    }
  }

  /**
   * Whether this person's next text answers a question the engine asked (so "15" is a price, not
   * a button number, in the terminal).
   */
  awaitsAnswer(conv: Conversation): Promise<boolean> {
    return isAwaiting(this.core.db, conversationKeyOf(conv), this.core.clock());
  }

  /** The bot was removed from a group chat: its link to a household ends. */
  groupLeft(channel: string, chatId: string): Promise<void> {
    return forgetGroup(this.core.db, channel, chatId);
  }

  /** The command menu of the registered features, for /help and Telegram's setMyCommands. */
  commandMenu(
    locale: Locale,
    place: 'private' | 'group',
    channel?: ChannelName,
    options?: MenuOptions,
  ): Array<{ command: string; description: string }> {
    return commandMenu(this.core, this.commands, locale, place, channel, options);
  }

  /** Whether free text gets the built-in assistant in a household (otherwise the command list). */
  async assistantOn(householdId: string): Promise<boolean> {
    return this.assistant ? this.assistant.isConfigured(householdId) : false;
  }

  /** The message a due reminder is delivered as. */
  reminderReply(reminder: Reminder): Promise<Reply> {
    return reminderReply(this.core, reminder, this.core.clock());
  }

  /** The message telling a member an agent changed something, or null when none is due. */
  agentNotice(event: ChangeEvent): Promise<{ memberId: string; reply: Reply } | null> {
    return agentNotice(this.core, event, this.core.clock());
  }

  private async text(turn: Turn, text: string, addressed: boolean): Promise<void> {
    const trimmed = text.trim();
    if (trimmed.length === 0) return;
    const cmd = COMMAND.exec(trimmed);
    if (cmd) {
      await clearAwaiting(turn.db, turn.conversationKey, turn.fresh);
      await this.runCommand(turn, (cmd[1] ?? '').toLowerCase(), cmd[2] ?? '');
      return;
    }
    // The answer to a question the bot asked this person here ("How much does it cost?"), in a
    // group too: there it is usually a reply to the question, and only the person asked answers.
    const awaiting = await takeAwaiting(turn.db, turn.conversationKey, turn.now);
    if (awaiting) {
      await this.answer(turn, awaiting, trimmed);
      return;
    }
    if (turn.inGroup) {
      if (addressed && (await this.groupAllows(turn))) await this.askLive(turn, { text: trimmed });
      return;
    }
    await this.askLive(turn, { text: trimmed });
  }

  /**
   * Free text for the built-in assistant, answered as it is written, when the assistant is
   * configured for the speaker's household; otherwise the command list. A person with no household
   * (so no owner and no assistant) is told how to start one or join one.
   */
  private async askLive(turn: Turn, message: AssistantMessage): Promise<void> {
    if (turn.speaker.newcomer) {
      await turn.send(helpReply(turn));
      return;
    }
    const assistant = await this.assistantFor(turn);
    if (!assistant) {
      await turn.send(helpReply(turn, turn.t('chat.free_text')));
      return;
    }
    await askLive(turn, assistant, message);
  }

  /**
   * A file (statement CSV, OFX or PDF, a screenshot) with its caption. A file that reads as a
   * statement goes to the statement review, model or not; one that does not (a receipt photo, a
   * random PDF), or a statement with no subscriptions found, goes to the assistant when it is on;
   * otherwise the member is told which formats work and how to turn the assistant on.
   */
  private async file(
    turn: Turn,
    file: IncomingFile,
    caption: string,
    addressed: boolean,
  ): Promise<void> {
    // In a group, a file whose caption is a command is answered as that command typed there
    // (`/import` says it only works in a private chat), never left without an answer.
    const command = turn.inGroup && addressed ? COMMAND.exec(caption.trim()) : null;
    if (command) {
      await this.runCommand(turn, (command[1] ?? '').toLowerCase(), command[2] ?? '');
      return;
    }
    if (turn.inGroup && !(addressed && (await this.groupAllows(turn)))) return;
    if (turn.speaker.newcomer) {
      await turn.send(helpReply(turn));
      return;
    }
    // An export sent for /import (its caption, or the file /import asked for) is imported.
    if (!turn.inGroup && (await wantsImport(turn, caption))) {
      await importSentFile(turn, file, this.log);
      return;
    }
    const assistant = await this.assistantFor(turn);
    const tidyNames = assistant?.tidyNames?.bind(assistant);
    const outcome = await readSentFile(turn, file, {
      assistantOn: assistant !== null,
      tidy: tidyNames ? (names) => tidyNames(turn.actor, names) : undefined,
      log: this.log,
    });
    if (outcome.kind === 'done') return;
    if (!assistant) {
      const off = turn.t('chat.statements.assistant_off');
      const reply = turn.reply().say(outcome.sentence ? `⚠️ ${outcome.sentence}\n\n${off}` : off);
      // The owner, in a private chat, can turn it on from here (/assistant).
      if (
        !turn.inGroup &&
        turn.actor.role === 'owner' &&
        this.commands.some((c) => c.command === 'assistant')
      )
        reply.row(
          reply.action(turn.t('manage.assistant.turn_on'), { t: 'command', command: 'assistant' }),
        );
      await turn.update(outcome.progress, reply);
      return;
    }
    const name = (file.name ?? 'file').slice(0, 120);
    const { data } = outcome;
    const limit = fileLimit(file);
    if (data.byteLength > limit) {
      const refusal = new OpError('too_large', 'chat.assistant.file_too_large', {
        name,
        max: sizeText(limit),
      });
      await turn.update(outcome.progress, turn.reply().say(`⚠️ ${refusal.render(turn.locale)}`));
      return;
    }
    const handed = outcome.sentence
      ? 'chat.statements.to_assistant'
      : 'chat.statements.none_to_assistant';
    await turn.update(outcome.progress, turn.reply().say(`ℹ️ ${turn.t(handed, { name })}`));
    // The bytes are here already: the assistant checks its own limit on their real size.
    const downloaded: IncomingFile = {
      name: file.name,
      mediaType: file.mediaType,
      size: data.byteLength,
      download: () => Promise.resolve(data),
    };
    await askWithFile(turn, assistant, downloaded, caption.trim(), this.log);
  }

  /** The assistant, when there is one and it is configured for the speaker's household. */
  private async assistantFor(turn: Turn): Promise<ChatAssistant | null> {
    const householdId = turn.actor.householdId;
    if (!this.assistant || turn.speaker.newcomer || householdId === null) return null;
    return (await this.assistant.isConfigured(householdId)) ? this.assistant : null;
  }

  /** In a group only members of the linked household are answered; says why when not. */
  private async groupAllows(turn: Turn): Promise<boolean> {
    if (turn.speaker.newcomer) {
      await turn.say(turn.t('chat.group.newcomer'));
      return false;
    }
    const refusal = await groupRefusal(turn);
    if (refusal) {
      await turn.say(refusal);
      return false;
    }
    return true;
  }

  /** Runs a command for the speaker, if it exists, they may use it, and here. */
  async runCommand(turn: Turn, name: string, args: string): Promise<void> {
    const spec = this.commands.find((c) => c.command === name);
    if (!spec) {
      await turn.send(
        helpReply(turn, turn.t('chat.unknown_command', { command: turn.command(name) })),
      );
      return;
    }
    if (turn.speaker.newcomer && !spec.newcomer) {
      await turn.say(turn.t(turn.inGroup ? 'chat.group.newcomer' : 'chat.need_household'));
      return;
    }
    if (spec.place === 'private' && turn.inGroup) {
      await turn.say(turn.t('chat.private_only', { command: spec.command }));
      return;
    }
    if (spec.place === 'group' && !turn.inGroup) {
      await turn.say(turn.t('chat.group_only', { command: spec.command }));
      return;
    }
    if (turn.inGroup && spec.beforeLink !== true) {
      const refusal = await groupRefusal(turn);
      if (refusal) {
        await turn.say(refusal);
        return;
      }
    }
    await spec.run(turn, args);
  }

  /** The next text after a question the engine asked, to the feature that asked it. */
  private async answer(turn: Turn, awaiting: Awaiting, text: string): Promise<void> {
    const handler = this.tables.answers.get(awaiting.t);
    // Every kind has a feature (checked in features/index.ts); a missing one is a programming error.
    if (!handler) throw new OpError('internal');
    await handler(turn, awaiting, text);
  }

  private async press(turn: Turn, payload: string, ref: SentRef | null): Promise<void> {
    if (isSigned(payload)) {
      // A signed button: its action is in the payload; nothing to read but the (cached) key.
      const key = await buttonKey(turn.db);
      const signed = verifySigned(key, payload, turn.owner, turn.now, BUTTON_TTL_MS);
      if (!signed.ok) {
        await this.notice(turn, turn.t(`chat.press.${signed.reason}`));
        return;
      }
      await this.act(turn, signed.action, ref);
      return;
    }
    const pressed = await loadPress(turn.db, payload, turn.now);
    if (!pressed.ok) {
      await this.notice(
        turn,
        turn.t(pressed.reason === 'expired' ? 'chat.press.expired' : 'chat.press.invalid'),
      );
      return;
    }
    const mine =
      pressed.owner.memberId !== null
        ? pressed.owner.memberId === turn.actor.memberId
        : pressed.owner.who === personKey(turn.conv.who);
    if (!mine) {
      await this.notice(turn, turn.t('chat.press.not_yours'));
      return;
    }
    if (pressed.used) {
      await this.notice(turn, turn.t('chat.press.used'));
      return;
    }
    if (runsOnce(pressed.action)) {
      if (!(await claimButtons(turn.db, pressed.flowId, turn.now))) {
        await this.notice(turn, turn.t('chat.press.used'));
        return;
      }
      try {
        await this.act(turn, pressed.action, ref);
      } catch (error) {
        // The action did not happen: let the button be pressed again.
        await releaseButtons(turn.db, pressed.flowId);
        throw error;
      }
      return;
    }
    await this.act(turn, pressed.action, ref);
  }

  private async notice(turn: Turn, text: string): Promise<void> {
    await turn.notice(text);
  }

  /** A pressed button's action, to the feature that handles its kind. */
  private async act(turn: Turn, action: Action, ref: SentRef | null): Promise<void> {
    const handler = this.tables.actions.get(action.t);
    if (!handler) throw new OpError('internal');
    await handler(turn, action, ref);
  }
}
