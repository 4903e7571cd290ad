import type { WebClient } from '@slack/web-api';

import type { Channel, ChannelWords, LiveText, Reply, SentRef } from '../../core/chat/index.ts';
import { SlackLive } from './live.ts';
import { renderSlack, withoutButtons } from './render.ts';

/** The ref prefix of an ephemeral message Exhale posted (Slack gives it no id to edit). */
const EPHEMERAL = 'ephemeral:';
let ephemeralSeq = 0;

/** A message's fallback text and blocks, as sent (or as a press reported it). */
export interface KnownMessage {
  text: string;
  blocks: unknown[];
}

export interface SlackChannelOptions {
  /** The conversation id: `D…` for the DM with the app, `C…`/`G…` for a channel. */
  channel: string;
  /** The person of this event: ephemeral notices and streams are for them. */
  user: string;
  team: string;
  /** Replies go into this thread (the Assistant container's thread, a mention in a thread). */
  threadTs?: string | undefined;
  /** In the Assistant container: "typing" is the thread's status, and answers are streamed. */
  assistantThread?: boolean | undefined;
  /** The status shown while the assistant works, in the person's language. */
  status?: string | undefined;
  /** The engine's command names, written as `/exhale <command>` in texts (see `slackCommands`). */
  commands: ReadonlySet<string>;
  /** Blocks of messages already known (the pressed message), so clearing buttons needs no read. */
  known?: Map<string, KnownMessage> | undefined;
  /** Characters a streamed answer gathers before each append. */
  streamBuffer?: number | undefined;
  /**
   * Replies are for `user` alone (ephemeral): a slash command or a press on an ephemeral message
   * in a channel, where what Exhale shows is one person's household data or card.
   */
  ephemeral?: boolean | undefined;
  /**
   * The event's `response_url` (a slash command, or a press on an ephemeral message): ephemeral
   * replies are posted through it (it works in channels the bot is not in), and the pressed
   * ephemeral message, which `chat.update` cannot reach, is replaced or deleted through it.
   */
  responseUrl?: string | undefined;
  /** The `ts` of the pressed message when it is ephemeral (its edits go through `responseUrl`). */
  pressedEphemeral?: string | undefined;
  log: (message: string, error?: unknown) => void;
}

/** What Slack's response URLs take: a new ephemeral message, or one for the message pressed. */
type ResponseMessage =
  | { response_type: 'ephemeral'; replace_original: false; text: string; blocks: unknown[] }
  | { replace_original: true; text: string; blocks: unknown[] }
  | { delete_original: true };

/**
 * The engine's Channel for one Slack conversation: messages are Block Kit (`render.ts`), edits and
 * cleared buttons are `chat.update`, a notice is an ephemeral message to the person, and in the
 * Assistant container an answer is streamed into the thread while the thread shows a status.
 * Slack has no link that opens the app with a payload: `deepLink` is null, so an invite is a code.
 */
export class SlackChannel implements Channel {
  readonly name = 'slack' as const;
  /** Slack's group chats are channels, and a command is typed `/exhale <command>`. */
  readonly words: ChannelWords = { group: 'channel', commandPrefix: '/exhale ' };
  readonly live?: () => LiveText;
  private readonly known: Map<string, KnownMessage>;

  constructor(
    private readonly client: WebClient,
    private readonly options: SlackChannelOptions,
  ) {
    this.known = options.known ?? new Map();
    const threadTs = options.threadTs;
    if (options.assistantThread && threadTs)
      this.live = () =>
        new SlackLive(
          client,
          { channel: options.channel, threadTs, team: options.team, user: options.user },
          (text) => this.send({ text }),
          options.log,
          options.streamBuffer,
        );
  }

  /** Posts to the event's response URL; throws when Slack refuses it (the caller's boundary logs). */
  private async respond(body: ResponseMessage): Promise<void> {
    const url = this.options.responseUrl;
    if (!url) throw new Error('this Slack event has no response_url');
    const answer = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`Slack's response_url answered ${answer.status}`);
  }

  /** True for a message only this person sees, which `chat.update` cannot edit. */
  private isEphemeral(ref: SentRef): boolean {
    return ref.messageId === this.options.pressedEphemeral || ref.messageId.startsWith(EPHEMERAL);
  }

  /**
   * An ephemeral reply: through the response URL when the event has one, else
   * `chat.postEphemeral`. Neither gives a message Exhale can edit later, so its ref is marked.
   */
  private async sendEphemeral(reply: Reply): Promise<SentRef> {
    const message = renderSlack(reply, this.options.commands);
    const chatId = this.options.channel;
    if (this.options.responseUrl) {
      await this.respond({
        response_type: 'ephemeral',
        replace_original: false,
        text: message.text,
        blocks: message.blocks,
      });
    } else {
      await this.client.chat.postEphemeral({
        channel: chatId,
        user: this.options.user,
        text: message.text,
        blocks: message.blocks,
        ...(this.options.threadTs ? { thread_ts: this.options.threadTs } : {}),
      });
    }
    if ((reply.files ?? []).length > 0)
      // An upload is visible to the whole channel: an ephemeral answer's files stay in the DM.
      this.options.log('slack: files of an ephemeral answer were not uploaded to the channel');
    return { chatId, messageId: `${EPHEMERAL}${++ephemeralSeq}` };
  }

  async send(reply: Reply): Promise<SentRef | null> {
    if (this.options.ephemeral) return this.sendEphemeral(reply);
    const message = renderSlack(reply, this.options.commands);
    const sent = await this.client.chat.postMessage({
      channel: this.options.channel,
      ...(this.options.threadTs ? { thread_ts: this.options.threadTs } : {}),
      text: message.text,
      blocks: message.blocks,
      unfurl_links: false,
    });
    const ts = sent.ts;
    if (!ts) return null;
    const chatId = sent.channel ?? this.options.channel;
    this.known.set(`${chatId}:${ts}`, message);
    // Files (an export) follow their message, in the same conversation and thread.
    for (const file of reply.files ?? []) {
      const content = { file: Buffer.from(file.bytes), filename: file.name, title: file.name };
      const threadTs = this.options.threadTs;
      await this.client.files.uploadV2(
        threadTs
          ? { channel_id: chatId, thread_ts: threadTs, ...content }
          : { channel_id: chatId, ...content },
      );
    }
    return { chatId, messageId: ts };
  }

  async edit(ref: SentRef, reply: Reply): Promise<void> {
    if (this.isEphemeral(ref)) {
      // The pressed ephemeral message is replaced through its response URL; one Exhale posted
      // during this event cannot be reached again, so the new state follows it.
      if (ref.messageId === this.options.pressedEphemeral && this.options.responseUrl) {
        const message = renderSlack(reply, this.options.commands);
        await this.respond({ replace_original: true, text: message.text, blocks: message.blocks });
      } else await this.sendEphemeral(reply);
      return;
    }
    const message = renderSlack(reply, this.options.commands);
    await this.client.chat.update({
      channel: ref.chatId,
      ts: ref.messageId,
      text: message.text,
      blocks: message.blocks,
    });
    this.known.set(`${ref.chatId}:${ref.messageId}`, message);
  }

  async clearButtons(ref: SentRef): Promise<void> {
    if (this.isEphemeral(ref)) {
      // Slack does not send an ephemeral message's content with a press, so it cannot be redrawn
      // without its buttons: it is deleted, and what the press did follows as a new message.
      if (ref.messageId === this.options.pressedEphemeral && this.options.responseUrl)
        await this.respond({ delete_original: true });
      return;
    }
    const key = `${ref.chatId}:${ref.messageId}`;
    let known = this.known.get(key);
    if (!known) {
      // Sent by another process or long ago: read the message back.
      const found = await this.client.conversations.replies({
        channel: ref.chatId,
        ts: ref.messageId,
        limit: 1,
        inclusive: true,
      });
      const message = found.messages?.find((m) => m.ts === ref.messageId);
      if (!message) return;
      known = { text: message.text ?? '', blocks: message.blocks ?? [] };
    }
    const kept = { text: known.text, blocks: withoutButtons(known.blocks) };
    await this.client.chat.update({
      channel: ref.chatId,
      ts: ref.messageId,
      text: kept.text,
      blocks: kept.blocks,
    });
    this.known.set(key, kept);
  }

  async typing(): Promise<void> {
    if (!this.options.assistantThread || !this.options.threadTs || !this.options.status) return;
    await this.client.assistant.threads.setStatus({
      channel_id: this.options.channel,
      thread_ts: this.options.threadTs,
      status: this.options.status,
    });
  }

  /** Seen only by the person who pressed (a double press, a stale button). */
  async notice(text: string): Promise<void> {
    if (this.options.ephemeral && this.options.responseUrl) {
      await this.respond({ response_type: 'ephemeral', replace_original: false, text, blocks: [] });
      return;
    }
    await this.client.chat.postEphemeral({
      channel: this.options.channel,
      user: this.options.user,
      text,
      ...(this.options.threadTs ? { thread_ts: this.options.threadTs } : {}),
    });
  }

  deepLink(): string | null {
    return null;
  }
}
