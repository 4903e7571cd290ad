import type { Reply } from '../chat/types.ts';
import type { Database } from '../store/connection.ts';
import { identitiesOf } from '../store/repos/identities.ts';
import type { ChannelAdapter, Deliverer, Recipient } from './types.ts';

/** One step of a member's route: a channel that is on, and who the member is there. */
export interface Route {
  channel: ChannelAdapter;
  to: Recipient;
}

/** Every channel that reaches a member failed; `failures` says why, in the order they were tried. */
export class DeliveryError extends Error {
  override readonly name = 'DeliveryError';
  constructor(readonly failures: ReadonlyArray<{ channel: string; error: unknown }>) {
    super(
      failures
        .map(
          ({ channel, error }) =>
            `${channel}: ${error instanceof Error ? error.message : String(error)}`,
        )
        .join('; '),
    );
  }
}

/**
 * The channels of one process. Adapters register once; `start` turns them on. A member is reached
 * through their accounts (`member_identities`) in the order they chose, on the channels that are
 * on here, then through local channels that reach them. A delivery goes out once: through the
 * first channel that takes it; a channel that fails hands over to the next, so a reminder reaches
 * the member through their preferred channel that works, and never twice.
 */
export class ChannelRegistry implements Deliverer {
  private readonly adapters: ChannelAdapter[] = [];
  private readonly on = new Set<string>();

  constructor(
    private readonly db: Database,
    private readonly log: (message: string, error?: unknown) => void = (message, error) =>
      console.error(message, error),
  ) {}

  /** Adds a channel (off until started). Names are unique. */
  register(adapter: ChannelAdapter): this {
    if (this.adapters.some((a) => a.name === adapter.name))
      throw new Error(`channel ${adapter.name} is registered twice`);
    this.adapters.push(adapter);
    return this;
  }

  /** The registered channels' names, in registration order. */
  names(): string[] {
    return this.adapters.map((a) => a.name);
  }

  isOn(name: string): boolean {
    return this.on.has(name);
  }

  /**
   * Starts one channel, or every registered channel that is off. A channel is on once its
   * `start` resolved; a rejection propagates and leaves it off (call again to retry).
   */
  async start(name?: string): Promise<void> {
    if (name !== undefined && !this.adapters.some((a) => a.name === name))
      throw new Error(`no channel ${name} is registered`);
    for (const adapter of this.adapters) {
      if ((name !== undefined && adapter.name !== name) || this.on.has(adapter.name)) continue;
      await adapter.start();
      this.on.add(adapter.name);
    }
  }

  /** Stops every channel that is on, the last started first; a failing stop is logged. */
  async stop(): Promise<void> {
    for (const adapter of [...this.adapters].reverse()) {
      if (!this.on.delete(adapter.name)) continue;
      try {
        await adapter.stop();
      } catch (error) {
        this.log(`channels: stopping ${adapter.name} failed`, error);
      }
    }
  }

  /** The channels that reach a member here, in the order a delivery tries them. */
  async routeOf(memberId: string): Promise<Route[]> {
    const live = this.adapters.filter((a) => this.on.has(a.name));
    if (live.length === 0) return [];
    const route: Route[] = [];
    for (const identity of await identitiesOf(this.db.knex, memberId)) {
      for (const channel of live) {
        if ('platform' in channel.reach && channel.reach.platform === identity.platform)
          route.push({ channel, to: { memberId, externalId: identity.external_id } });
      }
    }
    for (const channel of live) {
      if ('local' in channel.reach && channel.reach.local(memberId))
        route.push({ channel, to: { memberId, externalId: null } });
    }
    return route;
  }

  async reaches(memberId: string): Promise<boolean> {
    return (await this.routeOf(memberId)).length > 0;
  }

  async deliver(memberId: string, reply: Reply): Promise<string | null> {
    const route = await this.routeOf(memberId);
    if (route.length === 0) return null;
    const failures: Array<{ channel: string; error: unknown }> = [];
    for (const { channel, to } of route) {
      try {
        await channel.deliver(to, reply);
        return channel.name;
      } catch (error) {
        failures.push({ channel: channel.name, error });
      }
    }
    throw new DeliveryError(failures);
  }
}
