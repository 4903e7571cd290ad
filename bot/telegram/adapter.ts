import type { FetchHandler } from '../http/fetchHandler.ts';
import { startTelegram, type TelegramDeps, type TelegramHandle } from './index.ts';
import type { ChannelAdapter } from '../../core/index.ts';

/** Telegram as a channel of the registry, plus what only Telegram has (its handle, its webhook). */
export interface TelegramAdapter extends ChannelAdapter {
  /** The running bot; null until `start` resolved. */
  readonly handle: TelegramHandle | null;
}

/**
 * The Telegram bot as a registry channel: `start` connects (and may be called again after a
 * failure), a member is reached through their Telegram account in a private chat. `mount` gets
 * the webhook handler in webhook mode.
 */
export function telegramAdapter(
  deps: TelegramDeps & { mount?: ((handler: FetchHandler) => void) | undefined },
): TelegramAdapter {
  let handle: TelegramHandle | null = null;
  return {
    name: 'telegram',
    reach: { platform: 'telegram' },
    get handle() {
      return handle;
    },
    async start() {
      if (handle) return;
      const started = await startTelegram(deps);
      handle = started;
      if (started.webhook && deps.mount) deps.mount(started.webhook);
    },
    async stop() {
      const running = handle;
      handle = null;
      await running?.stop();
    },
    async deliver(to, reply) {
      if (!handle) throw new Error('Telegram is not connected');
      if (to.externalId === null) throw new Error('no Telegram account');
      await handle.sendTo(to.externalId, reply);
    },
  };
}
