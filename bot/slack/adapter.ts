import type { ChannelAdapter } from '../../core/index.ts';
import type { RouteGroup } from '../http/app.ts';
import { type SlackDeps, type SlackHandle, startSlack } from './index.ts';

export interface SlackAdapter extends ChannelAdapter {
  /** The running app; null until `start` resolved. */
  readonly handle: SlackHandle | null;
}

/**
 * Slack as a channel of the registry: `start` checks the token and connects (it may be called
 * again after a failure); a member is reached through their Slack account (`<team>:<user>`) in the
 * app's DM, and `deliver` throws when Slack refuses, so the registry tries the member's next
 * channel. `mount` gets the `/slack/events` routes in HTTP mode.
 */
export function slackAdapter(
  deps: SlackDeps & { mount?: ((routes: RouteGroup) => void) | undefined },
): SlackAdapter {
  let handle: SlackHandle | null = null;
  return {
    name: 'slack',
    reach: { platform: 'slack' },
    get handle() {
      return handle;
    },
    async start() {
      if (handle) return;
      const started = await startSlack(deps);
      handle = started;
      if (started.routes && deps.mount) deps.mount(started.routes);
    },
    async stop() {
      const running = handle;
      handle = null;
      await running?.stop();
    },
    async deliver(to, reply) {
      if (!handle) throw new Error('Slack is not connected');
      if (to.externalId === null) throw new Error('no Slack account');
      await handle.sendTo(to.externalId, reply);
    },
  };
}
