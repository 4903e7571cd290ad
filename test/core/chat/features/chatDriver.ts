import {
  ChatEngine,
  type ChatAssistant,
  type Conversation,
  type IncomingFile,
  type Reply,
  type SentRef,
} from '../../../../core/chat/index.ts';
import type { Actor } from '../../../../core/kernel/actor.ts';
import type { Core } from '../../../../core/kernel/core.ts';
import { RecordingChannel } from '../recordingChannel.ts';

/**
 * One member talking to the engine through a recording channel: what a scenario types, presses
 * and reads. Presses name a button by (part of) its label on a given message, default the last.
 */
export class ChatDriver {
  readonly channel: RecordingChannel;
  readonly engine: ChatEngine;
  /** What the engine logged (an unexpected failure), instead of the test's output. */
  readonly logged: Array<{ message: string; error: unknown }> = [];
  readonly conv: Conversation;

  constructor(
    core: Core,
    actor: Actor,
    options: {
      assistant?: ChatAssistant;
      group?: boolean;
      name?: string;
      channel?: RecordingChannel;
    } = {},
  ) {
    this.channel = options.channel ?? new RecordingChannel();
    this.engine = new ChatEngine({
      core,
      assistant: options.assistant ?? null,
      log: (message, error) => this.logged.push({ message, error }),
    });
    this.conv = {
      who: { channel: 'terminal', externalId: null, displayName: options.name ?? 'Ana', actor },
      where: options.group
        ? { kind: 'group', chatId: 'g', title: 'Home' }
        : { kind: 'private', chatId: 'c' },
    };
  }

  /** A second engine (another process) answering this same member in this same chat. */
  on(core: Core): ChatDriver {
    const other = new ChatDriver(core, this.conv.who.actor ?? this.fail('no actor'));
    Object.assign(other, { channel: this.channel, conv: this.conv });
    return other;
  }

  private fail(message: string): never {
    throw new Error(message);
  }

  /** Types a line; `message` is where the channel says it is (to be deleted). */
  async say(text: string, message?: SentRef): Promise<Reply> {
    await this.engine.handle(this.conv, { kind: 'text', text, message }, this.channel);
    return this.channel.last();
  }

  async send(file: IncomingFile, caption = ''): Promise<Reply> {
    await this.engine.handle(this.conv, { kind: 'file', file, caption }, this.channel);
    return this.channel.last();
  }

  /** The index of the newest message with a button whose label contains `label`. */
  find(label: string): number {
    for (let i = this.channel.messages.length - 1; i >= 0; i--) {
      const m = this.channel.messages[i];
      if ((m?.buttons ?? []).flat().some((b) => b.label.includes(label))) return i;
    }
    throw new Error(
      `no button "${label}" in ${JSON.stringify(this.channel.messages.map((m) => m.buttons))}`,
    );
  }

  payload(label: string): { payload: string; index: number } {
    const index = this.find(label);
    const message = this.channel.messages[index];
    if (!message) throw new Error('no message');
    return { payload: RecordingChannel.payload(message, label), index };
  }

  async press(label: string): Promise<Reply> {
    const { payload, index } = this.payload(label);
    return this.pressPayload(payload, index);
  }

  /** Presses; returns the new message the press sent, else the pressed message as it is now. */
  async pressPayload(payload: string, index: number): Promise<Reply> {
    const before = this.channel.messages.length;
    await this.engine.handle(
      this.conv,
      { kind: 'press', payload, message: { chatId: 'c', messageId: String(index) } },
      this.channel,
    );
    if (this.channel.messages.length > before) return this.channel.last();
    return this.channel.messages[index] ?? this.channel.last();
  }

  static text(reply: Reply): string {
    return RecordingChannel.text(reply);
  }

  /** Every message so far, as text, for a transcript. */
  transcript(): string {
    return this.channel.messages
      .map((m) => {
        const buttons = (m.buttons ?? []).map((row) => row.map((b) => `[${b.label}]`).join(' '));
        return [RecordingChannel.text(m), ...buttons].join('\n');
      })
      .join('\n---\n');
  }
}
