import type { Api } from 'grammy';

import type { ChatEngine } from '../../core/chat/index.ts';

/**
 * Registers the command menus with Telegram, generated from the engine's commands (which follow
 * the catalog): private and group chats, English as the default and Spanish for Spanish clients.
 */
export async function registerCommands(api: Api, engine: ChatEngine): Promise<void> {
  for (const place of ['private', 'group'] as const) {
    const scope = {
      type: place === 'private' ? ('all_private_chats' as const) : ('all_group_chats' as const),
    };
    await api.setMyCommands(engine.commandMenu('en', place), { scope });
    await api.setMyCommands(engine.commandMenu('es', place), { scope, language_code: 'es' });
  }
}

/** Puts the Mini App behind the menu button of private chats. */
export async function registerMiniApp(api: Api, url: string): Promise<void> {
  await api.setChatMenuButton({
    menu_button: { type: 'web_app', text: 'Exhale', web_app: { url } },
  });
}
