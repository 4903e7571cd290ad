import { appConnectedNotice } from '../chat/features/connect.ts';
import { agentNotice } from '../chat/features/notices.ts';
import type { Core } from '../kernel/core.ts';
import type { Deliverer } from './types.ts';

/**
 * Tells members about changes agents made for them (over MCP), through their channels. Only a
 * process with a channel that reaches the member takes the notice (it is sent once, by whichever
 * process claims it first). Returns the function that stops listening.
 */
export function startAgentNotices(
  core: Core,
  channels: Deliverer,
  log: (message: string, error?: unknown) => void,
): () => void {
  return core.bus.subscribe((event) => {
    if (event.kind === 'changed' && event.op === 'connect_app') {
      // An app was connected on the consent page: the member hears of it, with Disconnect.
      void (async () => {
        const notice = await appConnectedNotice(core, event, core.clock(), (member) =>
          channels.reaches(member),
        );
        if (notice) await channels.deliver(notice.memberId, notice.reply);
      })().catch((error: unknown) => log('channels: app notice failed', error));
      return;
    }
    if (event.kind !== 'changed' || event.actor.kind !== 'agent') return;
    const memberId = event.actor.memberId;
    if (memberId === null) return;
    void (async () => {
      if (!(await channels.reaches(memberId))) return;
      const notice = await agentNotice(core, event, core.clock());
      if (notice) await channels.deliver(notice.memberId, notice.reply);
    })().catch((error: unknown) => log('channels: agent notice failed', error));
  });
}
