import type { ChannelAdapter, Reach, Recipient } from '../../../core/channels/index.ts';
import type { Reply } from '../../../core/chat/index.ts';

/** A channel adapter that records what it delivers; `failing` makes every delivery throw. */
export interface FakeChannel extends ChannelAdapter {
  delivered: Array<{ to: Recipient; reply: Reply }>;
  failing: boolean;
  started: number;
  stopped: number;
}

export function fakeChannel(name: string, reach: Reach): FakeChannel {
  const channel: FakeChannel = {
    name,
    reach,
    delivered: [],
    failing: false,
    started: 0,
    stopped: 0,
    async start() {
      channel.started += 1;
    },
    async stop() {
      channel.stopped += 1;
    },
    async deliver(to, reply) {
      if (channel.failing) throw new Error(`${name} is down`);
      channel.delivered.push({ to, reply });
    },
  };
  return channel;
}
