import type { Channel, Reply, SentRef } from '../../../core/chat/index.ts';

/** A channel that keeps what the engine sent, with edits applied, for engine unit tests. */
export class RecordingChannel implements Channel {
  /** The channel it plays (the terminal unless a test names another: the web app's Ask). */
  constructor(readonly name: Channel['name'] = 'terminal') {}
  readonly messages: Reply[] = [];
  readonly notices: string[] = [];
  typings = 0;

  async send(reply: Reply): Promise<SentRef> {
    this.messages.push(structuredClone(reply));
    return { chatId: 'c', messageId: String(this.messages.length - 1) };
  }

  async edit(ref: SentRef, reply: Reply): Promise<void> {
    this.messages[Number(ref.messageId)] = structuredClone(reply);
  }

  async clearButtons(ref: SentRef): Promise<void> {
    const message = this.messages[Number(ref.messageId)];
    if (message) delete message.buttons;
  }

  async typing(): Promise<void> {
    this.typings += 1;
  }

  async notice(text: string): Promise<void> {
    this.notices.push(text);
  }

  deepLink(code: string): string {
    return `link:${code}`;
  }

  last(): Reply {
    const reply = this.messages.at(-1);
    if (!reply) throw new Error('nothing was sent');
    return reply;
  }

  /** All text of a reply: card title, lines and text. */
  static text(reply: Reply): string {
    return [reply.card?.title, ...(reply.card?.lines ?? []), reply.text]
      .filter((s) => s !== undefined)
      .join('\n');
  }

  /** The payload of the button whose label contains `label`. */
  static payload(reply: Reply, label: string): string {
    const button = (reply.buttons ?? []).flat().find((b) => b.label.includes(label));
    if (!button || button.kind !== 'action')
      throw new Error(`no button ${label} in ${JSON.stringify(reply.buttons)}`);
    return button.payload;
  }
}
