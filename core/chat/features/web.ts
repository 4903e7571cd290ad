import { defineFeature } from '../feature.ts';
import type { Turn } from '../turn.ts';

/**
 * `/web`: a sign-in link for Exhale's web app in a browser (`create_sign_in_link`: one use, 10
 * minutes), for a desktop, another device, or anyone not in Telegram. Private chats only: the
 * link is a credential. The link is a button where the platform can open it (an https address),
 * and always written out, so it can be copied to another device; in Telegram the Mini App button
 * opens the same app in place (it signs in by Telegram itself, no code needed).
 */
export async function signInLink(turn: Turn): Promise<void> {
  const base = turn.engine.webUrl;
  const result = await turn.invoke('create_sign_in_link', {});
  const out = result.output as { path: string; expires_at: string };
  const link = `${base ?? ''}${out.path}`;
  const reply = turn.reply();
  reply.setCard({
    title: `🌐 ${turn.t('web.chat.title')}`,
    lines: [turn.t('web.chat.once'), turn.t('web.chat.other_device')],
    code: link,
  });
  if (link.startsWith('https://')) reply.row(reply.url(turn.t('web.chat.open_browser'), link));
  const app = turn.engine.miniAppUrl;
  if (app && turn.channel.name === 'telegram' && !turn.inGroup)
    reply.row(reply.webapp(turn.t('chat.button.open_app'), app));
  await turn.send(reply);
}

export const webFeature = defineFeature({
  name: 'web',
  commands: [
    {
      command: 'web',
      op: 'create_sign_in_link',
      place: 'private',
      newcomer: false,
      notOn: ['web'],
      run: signInLink,
    },
  ],
});
