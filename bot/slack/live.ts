import type { ChatStreamer, WebClient } from '@slack/web-api';

import type { LiveText, SentRef } from '../../core/chat/index.ts';

export interface StreamTarget {
  channel: string;
  threadTs: string;
  /** Required by Slack outside DMs: whom the stream is for. */
  team: string;
  user: string;
}

/**
 * An answer streamed into a Slack thread with `chat.startStream/appendStream/stopStream` (through
 * web-api's `ChatStreamer`, which buffers small pieces). Pieces are sent in order, one call at a
 * time; a failed call ends the stream, and `finish` then posts the whole answer as an ordinary
 * message so the member still reads it.
 */
export class SlackLive implements LiveText {
  private readonly streamer: ChatStreamer;
  private chain: Promise<void> = Promise.resolve();
  private failed = false;
  private written = '';

  constructor(
    private readonly client: WebClient,
    private readonly target: StreamTarget,
    private readonly post: (text: string) => Promise<SentRef | null>,
    private readonly log: (message: string, error?: unknown) => void,
    bufferSize = 256,
  ) {
    this.streamer = client.chatStream({
      channel: target.channel,
      thread_ts: target.threadTs,
      recipient_team_id: target.team,
      recipient_user_id: target.user,
      buffer_size: bufferSize,
    });
  }

  write(delta: string): void {
    if (delta.length === 0) return;
    this.written += delta;
    this.chain = this.chain.then(async () => {
      if (this.failed) return;
      try {
        await this.streamer.append({ markdown_text: delta });
      } catch (error) {
        this.failed = true;
        this.log('slack: streaming an answer failed; it is posted when complete', error);
      }
    });
  }

  async finish(text: string): Promise<SentRef | null> {
    await this.chain;
    if (!this.failed) {
      // What was streamed is the answer; the rest of `text` (if the engine tidied it) is appended.
      const rest = text.startsWith(this.written) ? text.slice(this.written.length) : '';
      if (this.written.length === 0 && text.length === 0) return null;
      try {
        await this.streamer.stop(
          rest || this.written.length === 0 ? { markdown_text: rest || text } : undefined,
        );
        const ts = this.streamer.ts;
        if (ts) return { chatId: this.target.channel, messageId: ts };
      } catch (error) {
        this.log('slack: ending a streamed answer failed; posting it', error);
        if (this.streamer.ts) return { chatId: this.target.channel, messageId: this.streamer.ts };
      }
    }
    return text.length > 0 ? this.post(text) : null;
  }

  async abort(): Promise<void> {
    await this.chain;
    this.failed = true;
    if (this.streamer.ts)
      await this.streamer
        .stop()
        .catch((error: unknown) => this.log('slack: stopStream failed', error));
  }
}
