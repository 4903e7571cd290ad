import type { Reply } from '../chat/types.ts';
import type { Platform } from '../domain/schemas.ts';

/** Whom a delivery is for: the member, and their account on the channel's platform (null for a local channel). */
export interface Recipient {
  memberId: string;
  externalId: string | null;
}

/**
 * How a channel finds a member. `platform`: through the member's account there (their
 * `member_identities` row), in the member's chosen order. `local`: the channel itself knows whom it
 * reaches (the terminal is open for one member); such channels come after the member's accounts.
 */
export type Reach = { platform: Platform } | { local: (memberId: string) => boolean };

/**
 * A way of reaching members outside a conversation (reminders, agent notices): Telegram, the
 * terminal, Slack next, the Mini App's web push later. Each adapter lives with its platform in
 * `bot/`; the registry (`ChannelRegistry`) starts it and routes deliveries to it.
 */
export interface ChannelAdapter {
  /** Unique in a registry: `telegram`, `terminal`, `slack`. */
  readonly name: string;
  readonly reach: Reach;
  /** Connects (a bot's polling or webhook). A rejection leaves the channel off; it may be started again. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Sends one reply to the member. Throws when it could not (the member blocked the bot, the
   * platform is down): the registry then tries the member's next channel.
   */
  deliver(to: Recipient, reply: Reply): Promise<void>;
}

/** What the scheduler and agent notices need from the registry. */
export interface Deliverer {
  /** Whether a channel that is on reaches the member (otherwise leave the work to a process that does). */
  reaches(memberId: string): Promise<boolean>;
  /**
   * Delivers once, through the member's first channel that works; resolves with its name, or
   * null when no channel that is on reaches the member. Throws `DeliveryError` when every channel
   * that reaches the member failed.
   */
  deliver(memberId: string, reply: Reply): Promise<string | null>;
}
